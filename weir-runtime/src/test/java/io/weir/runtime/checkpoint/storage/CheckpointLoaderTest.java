package io.weir.runtime.checkpoint.storage;

import static io.weir.runtime.checkpoint.storage.Snapshots.expectedOperators;
import static io.weir.runtime.checkpoint.storage.Snapshots.readable;
import static io.weir.runtime.checkpoint.storage.Snapshots.storeAll;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.weir.runtime.checkpoint.CompletedCheckpoint;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class CheckpointLoaderTest {
  @TempDir Path root;

  @Test
  void when_checkpointDirectoryGiven_then_itIsLoaded() throws IOException {
    FileCheckpointStorage storage = completedCheckpoints(3);

    CompletedCheckpoint loaded = CheckpointLoader.load(storage.checkpointDirectory(3));

    assertThat(loaded.checkpointId()).isEqualTo(3);
    assertThat(readable(loaded.operators())).isEqualTo(expectedOperators(3));
  }

  @Test
  void when_metadataFileGiven_then_itsCheckpointIsLoaded() throws IOException {
    FileCheckpointStorage storage = completedCheckpoints(2);

    CompletedCheckpoint loaded =
        CheckpointLoader.load(storage.checkpointDirectory(2).resolve("_metadata"));

    assertThat(loaded.checkpointId()).isEqualTo(2);
  }

  @Test
  void when_jobDirectoryGiven_then_newestValidIsLoadedAndFallbackReported() throws IOException {
    FileCheckpointStorage storage = completedCheckpoints(2);
    Files.writeString(storage.checkpointDirectory(2).resolve("_metadata"), "{\"format\": \"we");
    RecordingListener listener = new RecordingListener();

    CompletedCheckpoint loaded = CheckpointLoader.load(storage.jobDirectory(), listener);

    assertThat(loaded.checkpointId()).isEqualTo(1);
    assertThat(listener.skipped).containsExactly("chk-2: _metadata truncated");
  }

  @Test
  void when_directoryMissing_then_oneLineErrorNamesIt() {
    Path missing = root.resolve("nowhere");

    assertThatThrownBy(() -> CheckpointLoader.load(missing))
        .isInstanceOf(InvalidCheckpointException.class)
        .hasMessage("invalid checkpoint " + missing + ": no such directory");
  }

  @Test
  void when_checkpointDirectoryLacksMetadata_then_errorSaysSo() throws IOException {
    FileCheckpointStorage storage = FileCheckpointStorage.forJob(root, "job", 1);
    storeAll(storage, 4, false);

    assertThatThrownBy(() -> CheckpointLoader.load(storage.checkpointDirectory(4)))
        .isInstanceOf(InvalidCheckpointException.class)
        .hasMessage("invalid checkpoint " + storage.checkpointDirectory(4) + ": _metadata missing");
  }

  @Test
  void when_stateFileCorrupt_then_errorNamesTheFile() throws IOException {
    FileCheckpointStorage storage = completedCheckpoints(1);
    Path directory = storage.checkpointDirectory(1);
    String stateFile = CheckpointLayout.stateFileName(Snapshots.SINK_TASK, 1);
    byte[] bytes = Files.readAllBytes(directory.resolve(stateFile));
    bytes[10] ^= 0x01;
    Files.write(directory.resolve(stateFile), bytes);

    assertThatThrownBy(() -> CheckpointLoader.load(directory))
        .hasMessage("invalid checkpoint " + directory + ": checksum mismatch in " + stateFile);
  }

  @Test
  void when_unrelatedDirectoryGiven_then_errorExplainsWhatIsMissing() throws IOException {
    Path empty = Files.createDirectory(root.resolve("empty"));

    assertThatThrownBy(() -> CheckpointLoader.load(empty))
        .hasMessage(
            "invalid checkpoint "
                + empty
                + ": _metadata missing and no chk-* checkpoint directories");
  }

  @Test
  void when_noCheckpointOfJobDirectoryValid_then_errorCountsThem() throws IOException {
    FileCheckpointStorage storage = completedCheckpoints(1);
    Files.delete(storage.checkpointDirectory(1).resolve("_metadata"));

    assertThatThrownBy(() -> CheckpointLoader.load(storage.jobDirectory()))
        .hasMessage(
            "invalid checkpoint "
                + storage.jobDirectory()
                + ": none of its 1 checkpoint directories is valid");
  }

  private FileCheckpointStorage completedCheckpoints(int count) throws IOException {
    FileCheckpointStorage storage = FileCheckpointStorage.forJob(root, "job", count);
    for (long id = 1; id <= count; id++) {
      storage.complete(storeAll(storage, id, false));
    }
    return storage;
  }
}
