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
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class SavepointStorageTest {
  @TempDir Path root;

  @Test
  void when_savepointWritten_then_loaderRestoresItMarkedAsSavepoint() throws IOException {
    Path target = root.resolve("savepoints").resolve("before-upgrade");
    SavepointStorage storage = FileCheckpointStorage.forSavepoint(target);

    CompletedCheckpoint completed = storage.complete(storeAll(storage, 12, false));
    CompletedCheckpoint loaded = CheckpointLoader.load(target);

    assertThat(completed.savepoint()).isTrue();
    assertThat(loaded.savepoint()).isTrue();
    assertThat(loaded.checkpointId()).isEqualTo(12);
    assertThat(loaded.location()).isEqualTo(target);
    assertThat(readable(loaded.operators())).isEqualTo(expectedOperators(12));
    assertThat(storage.latest(new RecordingListener())).isPresent();
  }

  @Test
  void when_directoryAlreadyHoldsSavepoint_then_secondOneIsRefused() throws IOException {
    Path target = root.resolve("savepoint");
    SavepointStorage first = FileCheckpointStorage.forSavepoint(target);
    first.complete(storeAll(first, 1, true));

    SavepointStorage second = FileCheckpointStorage.forSavepoint(target);

    assertThatThrownBy(() -> storeAll(second, 2, true))
        .hasMessage("savepoint directory " + target + " already holds a savepoint; choose another");
    assertThat(CheckpointLoader.load(target).checkpointId()).isEqualTo(1);
  }

  @Test
  void when_savepointAborted_then_itsFilesAreRemoved() throws IOException {
    Path target = root.resolve("savepoint");
    SavepointStorage storage = FileCheckpointStorage.forSavepoint(target);
    storeAll(storage, 1, true);

    storage.discard(1);

    try (Stream<Path> files = Files.list(target)) {
      assertThat(files).isEmpty();
    }
    RecordingListener listener = new RecordingListener();
    assertThat(storage.latest(listener)).isEmpty();
    assertThat(listener.skipped).containsExactly("savepoint: _metadata missing");
  }

  @Test
  void when_completedSavepointDiscarded_then_itIsKept() throws IOException {
    Path target = root.resolve("savepoint");
    SavepointStorage storage = FileCheckpointStorage.forSavepoint(target);
    storage.complete(storeAll(storage, 1, true));

    storage.discard(1);

    assertThat(CheckpointLoader.load(target).checkpointId()).isEqualTo(1);
  }
}
