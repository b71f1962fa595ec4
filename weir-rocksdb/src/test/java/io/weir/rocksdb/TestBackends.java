package io.weir.rocksdb;

import io.weir.runtime.checkpoint.storage.CheckpointLayout;
import io.weir.runtime.state.KeyGroupRange;
import io.weir.runtime.state.KeyGroups;
import io.weir.runtime.state.KeyedBackendContext;
import io.weir.runtime.state.KeyedBackendContext.SnapshotFiles;
import io.weir.runtime.state.KeyedStateBackend;
import io.weir.runtime.state.OperatorSubtaskState;
import java.nio.file.Path;
import java.util.Map;
import java.util.Optional;

/**
 * RocksDB backends of one operator of a test job whose checkpoints go to {@code jobDirectory}, and
 * checkpoints taken as a task takes them (synchronous part, then the asynchronous one).
 */
final class TestBackends {
  static final int MAX_PARALLELISM = 128;

  private final Path jobDirectory;
  private final String operatorUid;

  TestBackends(Path jobDirectory, String operatorUid) {
    this.jobDirectory = jobDirectory;
    this.operatorUid = operatorUid;
  }

  KeyedStateBackend backend(int subtask, int parallelism, OperatorSubtaskState restored)
      throws Exception {
    KeyGroupRange range = KeyGroups.rangeOf(subtask, MAX_PARALLELISM, parallelism);
    return new RocksDbStateBackendFactory()
        .create(
            new KeyedBackendContext(
                "job",
                operatorUid,
                subtask,
                range,
                MAX_PARALLELISM,
                restored,
                id ->
                    Optional.of(
                        new SnapshotFiles(
                            CheckpointLayout.sharedDirectory(jobDirectory),
                            true,
                            jobDirectory.resolve(CheckpointLayout.checkpointDirectoryName(id))))));
  }

  static Map<Integer, byte[]> checkpoint(KeyedStateBackend backend, long checkpointId)
      throws Exception {
    Map<Integer, byte[]> keyGroups = backend.snapshot(checkpointId);
    backend.materializeSnapshot(checkpointId);
    return keyGroups;
  }

  static OperatorSubtaskState restored(Map<Integer, byte[]> keyGroups) {
    return new OperatorSubtaskState(Map.of(), Map.of(), keyGroups);
  }
}
