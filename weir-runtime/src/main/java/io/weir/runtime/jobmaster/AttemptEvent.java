package io.weir.runtime.jobmaster;

import io.weir.runtime.checkpoint.CompletedCheckpoint;
import io.weir.runtime.checkpoint.SavepointStop;
import io.weir.runtime.checkpoint.SubtaskKey;

/**
 * What the task managers, the checkpoint coordinator and the user tell a {@link JobAttempt}: queued
 * by any thread, handled in order on the attempt's own thread.
 */
sealed interface AttemptEvent {
  record Deployed(String taskManagerId, Throwable error) implements AttemptEvent {}

  record Running(SubtaskKey subtask) implements AttemptEvent {}

  record SinkOutputStarted(SubtaskKey subtask) implements AttemptEvent {}

  record DataFinished(SubtaskKey subtask) implements AttemptEvent {}

  record Terminated(SubtaskKey subtask) implements AttemptEvent {}

  record Failed(Throwable cause) implements AttemptEvent {}

  record FinalCheckpointDone(Throwable failure) implements AttemptEvent {}

  record StopRequested(SavepointStop stop) implements AttemptEvent {}

  record StopSavepointDone(CompletedCheckpoint savepoint, Throwable failure)
      implements AttemptEvent {}
}
