package io.weir.cluster.taskmanager;

import io.weir.runtime.checkpoint.CheckpointMetadata;
import io.weir.runtime.checkpoint.CheckpointStorage;
import io.weir.runtime.checkpoint.CompletedCheckpoint;
import io.weir.runtime.checkpoint.StateHandle;
import io.weir.runtime.checkpoint.storage.CheckpointLayout;
import io.weir.runtime.checkpoint.storage.CheckpointWriter;
import io.weir.runtime.state.KeyedBackendContext.SnapshotFiles;
import io.weir.runtime.state.TaskSnapshot;
import java.io.IOException;
import java.nio.file.Path;
import java.util.Optional;

/**
 * A task manager's half of the job's checkpoint storage: it writes its subtasks' state files into
 * the shared checkpoint directory; the job manager completes, discards and reads checkpoints.
 */
final class TaskManagerStateStorage implements CheckpointStorage {
  private final Path jobDirectory;

  TaskManagerStateStorage(Path jobDirectory) {
    this.jobDirectory = jobDirectory;
  }

  @Override
  public StateHandle storeTaskState(
      long checkpointId, String taskId, int subtaskIndex, TaskSnapshot state) throws IOException {
    Path directory = jobDirectory.resolve(CheckpointLayout.checkpointDirectoryName(checkpointId));
    return CheckpointWriter.writeState(directory, taskId, subtaskIndex, state);
  }

  @Override
  public Optional<SnapshotFiles> snapshotFiles(long checkpointId) {
    return Optional.of(
        new SnapshotFiles(
            CheckpointLayout.sharedDirectory(jobDirectory),
            true,
            jobDirectory.resolve(CheckpointLayout.checkpointDirectoryName(checkpointId))));
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
    return jobDirectory.toString();
  }
}
