package io.weir.runtime.checkpoint;

import io.weir.runtime.checkpoint.CheckpointMetadata.SubtaskStateHandle;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ScheduledFuture;

/** A triggered checkpoint waiting for the acknowledgements of every subtask. */
final class PendingCheckpoint {
  final long checkpointId;
  final long timestamp;
  final CheckpointKind kind;
  final CompletableFuture<CompletedCheckpoint> result = new CompletableFuture<>();
  private final Set<SubtaskKey> waitingFor;
  private final List<SubtaskStateHandle> states = new ArrayList<>();
  private CheckpointStatus status = CheckpointStatus.PENDING;
  ScheduledFuture<?> expiry;
  // What the job manager keeps beside the tasks' state, taken at the trigger.
  Map<String, byte[]> masterStates = Map.of();

  PendingCheckpoint(
      long checkpointId, long timestamp, Set<SubtaskKey> subtasks, CheckpointKind kind) {
    this.checkpointId = checkpointId;
    this.timestamp = timestamp;
    this.kind = kind;
    this.waitingFor = new HashSet<>(subtasks);
  }

  /**
   * Records an acknowledgement; false for a subtask that is unknown or acknowledged already, or
   * when the checkpoint has ended.
   */
  boolean acknowledge(String taskId, int subtaskIndex, StateHandle handle) {
    if (status != CheckpointStatus.PENDING
        || !waitingFor.remove(new SubtaskKey(taskId, subtaskIndex))) {
      return false;
    }
    states.add(new SubtaskStateHandle(taskId, subtaskIndex, handle));
    return true;
  }

  boolean isFullyAcknowledged() {
    return waitingFor.isEmpty();
  }

  List<SubtaskStateHandle> states() {
    return List.copyOf(states);
  }

  CheckpointStatus status() {
    return status;
  }

  /**
   * Ends the checkpoint as {@code next}: completed, aborted or subsumed.
   *
   * @throws IllegalStateException when it already ended
   */
  void end(CheckpointStatus next) {
    status = status.moveTo(next, checkpointId);
  }
}
