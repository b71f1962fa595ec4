package io.weir.runtime.taskexecutor;

import io.weir.runtime.checkpoint.CheckpointMetadata;
import io.weir.runtime.checkpoint.CheckpointStorage;
import io.weir.runtime.checkpoint.CompletedCheckpoint;
import io.weir.runtime.checkpoint.StateHandle;
import io.weir.runtime.state.KeyedBackendContext.SnapshotFiles;
import io.weir.runtime.state.TaskSnapshot;
import java.io.IOException;
import java.util.Optional;
import java.util.function.LongFunction;

/**
 * A task manager's half of a job's checkpoint storage: its subtasks store their state through it;
 * the job manager alone completes, discards and reads checkpoints.
 */
public final class TaskStateStorage implements CheckpointStorage {
  /** Stores one subtask's state of a checkpoint; thread safe. */
  public interface StateWriter {
    StateHandle write(long checkpointId, String taskId, int subtaskIndex, TaskSnapshot state)
        throws IOException;
  }

  private final StateWriter writer;
  private final LongFunction<Optional<SnapshotFiles>> snapshotFiles;
  private final String description;

  /**
   * @param snapshotFiles where state backends that write files put those of a checkpoint
   */
  public TaskStateStorage(
      StateWriter writer, LongFunction<Optional<SnapshotFiles>> snapshotFiles, String description) {
    this.writer = writer;
    this.snapshotFiles = snapshotFiles;
    this.description = description;
  }

  /** The task side of {@code jobStorage}, whose job manager runs in this JVM. */
  public static TaskStateStorage of(CheckpointStorage jobStorage) {
    return new TaskStateStorage(
        jobStorage::storeTaskState, jobStorage::snapshotFiles, jobStorage.describe());
  }

  @Override
  public Optional<SnapshotFiles> snapshotFiles(long checkpointId) {
    return snapshotFiles.apply(checkpointId);
  }

  @Override
  public StateHandle storeTaskState(
      long checkpointId, String taskId, int subtaskIndex, TaskSnapshot state) throws IOException {
    return writer.write(checkpointId, taskId, subtaskIndex, state);
  }

  @Override
  public CompletedCheckpoint complete(CheckpointMetadata metadata) {
    throw new UnsupportedOperationException("only the job manager completes checkpoints");
  }

  @Override
  public void discard(long checkpointId) {
    // The job manager deletes aborted checkpoints.
  }

  @Override
  public Optional<CompletedCheckpoint> latest(RestoreListener listener) {
    throw new UnsupportedOperationException("only the job manager reads checkpoints");
  }

  @Override
  public String describe() {
    return description;
  }
}
