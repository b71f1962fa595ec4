package io.weir.rocksdb;

import io.weir.api.state.StateBackend;
import io.weir.runtime.checkpoint.storage.CheckpointLayout;
import io.weir.runtime.state.KeyGroupRange;
import io.weir.runtime.state.KeyGroups;
import io.weir.runtime.state.KeyedBackendContext;
import io.weir.runtime.state.KeyedBackendContext.SnapshotFiles;
import io.weir.runtime.state.KeyedStateBackend;
import io.weir.runtime.state.KeyedStateBackends;
import io.weir.runtime.state.OperatorSubtaskState;
import java.nio.file.Path;
import java.util.Map;
import java.util.Optional;
import java.util.function.LongFunction;

/**
 * RocksDB backends of one operator of a test job whose checkpoints go to {@code jobDirectory}, and
 * checkpoints taken as a task takes them (synchronous part, then the asynchronous one).
 */
final class TestBackends {
  static final int MAX_PARALLELISM = 128;

  private final Path jobDirectory;
  private final String operatorUid;
  private final LongFunction<Path> savepoints;

  TestBackends(Path jobDirectory, String operatorUid) {
    this(jobDirectory, operatorUid, id -> null);
  }

  /** {@code savepoints} gives the savepoint directory of a checkpoint id, null for a checkpoint. */
  TestBackends(Path jobDirectory, String operatorUid, LongFunction<Path> savepoints) {
    this.jobDirectory = jobDirectory;
    this.operatorUid = operatorUid;
    this.savepoints = savepoints;
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
                id -> Optional.of(snapshotFiles(id))));
  }

  /** The backends of the operators of the test job, as a task hands them to its operators. */
  KeyedStateBackends keyedStateBackends() {
    return KeyedStateBackends.forJob(
        StateBackend.named("rocksdb"), "job", id -> Optional.of(snapshotFiles(id)));
  }

  private SnapshotFiles snapshotFiles(long checkpointId) {
    Path savepoint = savepoints.apply(checkpointId);
    return savepoint != null
        ? new SnapshotFiles(CheckpointLayout.savepointFilesDirectory(savepoint), false, savepoint)
        : new SnapshotFiles(
            CheckpointLayout.sharedDirectory(jobDirectory),
            true,
            checkpointDirectory(checkpointId));
  }

  static Map<Integer, byte[]> checkpoint(KeyedStateBackend backend, long checkpointId)
      throws Exception {
    Map<Integer, byte[]> keyGroups = backend.snapshot(checkpointId);
    backend.materializeSnapshot(checkpointId);
    return keyGroups;
  }

  /** The state of {@code keyGroups} as a restore of checkpoint {@code checkpointId} reads it. */
  OperatorSubtaskState restored(Map<Integer, byte[]> keyGroups, long checkpointId) {
    return new OperatorSubtaskState(
        Map.of(), Map.of(), keyGroups, checkpointDirectory(checkpointId));
  }

  Path checkpointDirectory(long checkpointId) {
    return jobDirectory.resolve(CheckpointLayout.checkpointDirectoryName(checkpointId));
  }
}
