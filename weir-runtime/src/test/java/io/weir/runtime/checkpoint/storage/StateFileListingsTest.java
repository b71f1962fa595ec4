package io.weir.runtime.checkpoint.storage;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.weir.runtime.state.StateFileListing;
import io.weir.runtime.state.StateFileListing.StateFile;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The listings of the files checkpoints share: reference counts, verification, summaries. */
class StateFileListingsTest {
  @TempDir Path jobDirectory;

  @Test
  void when_noCheckpointLeftListsASharedFile_then_itIsDeleted() throws Exception {
    // given: checkpoint 1 needs a and b, checkpoint 2 shares b and wrote c
    Path shared = CheckpointLayout.sharedDirectory(jobDirectory);
    Files.createDirectories(shared);
    for (String name : List.of("a", "b", "c")) {
      Files.writeString(shared.resolve(name), name);
    }
    Path first = jobDirectory.resolve("chk-1");
    Path second = jobDirectory.resolve("chk-2");
    StateFileListing.write(first, "op-0", List.of(file("a", true), file("b", true)));
    StateFileListing.write(second, "op-0", List.of(file("b", false), file("c", true)));

    // when: checkpoint 1 is pruned
    Directories.deleteRecursively(first);
    StateFileListings.deleteUnreferenced(jobDirectory);

    // then
    assertThat(shared.resolve("a")).doesNotExist();
    assertThat(shared.resolve("b")).exists();
    assertThat(shared.resolve("c")).exists();
    assertThat(StateFileListings.summarize(second))
        .isEqualTo(new StateFileListings.Summary(2, 2, 1));
  }

  @Test
  void when_aListedFileIsMissingOrShort_then_theCheckpointIsInvalidNamingIt() throws Exception {
    // given
    Path shared = CheckpointLayout.sharedDirectory(jobDirectory);
    Files.createDirectories(shared);
    Files.writeString(shared.resolve("a"), "");
    Path checkpoint = jobDirectory.resolve("chk-1");
    StateFileListing.write(checkpoint, "op-0", List.of(file("a", true)));

    // when / then: a is shorter than listed
    assertThatThrownBy(() -> StateFileListings.verify(checkpoint))
        .isInstanceOf(InvalidCheckpointException.class)
        .hasMessageContaining(shared.resolve("a").toString())
        .hasMessageContaining("0 bytes, expected 1");
    Files.delete(shared.resolve("a"));
    assertThatThrownBy(() -> StateFileListings.verify(checkpoint))
        .hasMessageContaining(shared.resolve("a") + " is missing");
  }

  private static StateFile file(String name, boolean written) {
    return new StateFile("../shared/" + name, 1, written);
  }
}
