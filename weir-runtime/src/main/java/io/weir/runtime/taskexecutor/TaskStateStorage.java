package io.weir.runtime.taskexecutor;

import io.weir.runtime.checkpoint.CheckpointMetadata;
import io.weir.runtime.checkpoint.CheckpointStorage;
import io.weir.runtime.checkpoint.CompletedCheckpoint;
import io.weir.runtime.checkpoint.StateHandle;
import io.weir.runtime.state.TaskSnapshot;
import java.io.IOException;
import java.util.Optional;

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
  private final String description;

  public TaskStateStorage(StateWriter writer, String description) {
    this.writer = writer;
    this.description = description;
  }

  /** The task side of {@code jobStorage}, whose job manager runs in this JVM. */
  public static TaskStateStorage of(CheckpointStorage jobStorage) {
    return new TaskStateStorage(jobStorage::storeTaskState, jobStorage.describe());
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
