package io.weir.runtime.gateway;

import io.weir.runtime.checkpoint.CompletedCheckpoint;
import java.util.List;

/**
 * What the job manager deploys for one attempt: the same for every task manager, each creating the
 * subtasks placed on it.
 *
 * @param attempt 0 for the first attempt of the job, then one more per restart
 * @param restored the checkpoint or savepoint every subtask restores from, or null for none
 * @param placements every subtask of the job, not only those of one task manager
 */
public record AttemptDeployment(
    int attempt, CompletedCheckpoint restored, List<SubtaskPlacement> placements) {
  public AttemptDeployment {
    placements = List.copyOf(placements);
  }

  /** The task manager that runs subtask {@code subtask} of the task {@code vertexId}. */
  public String taskManagerOf(String vertexId, int subtask) {
    for (SubtaskPlacement placement : placements) {
      if (placement.vertexId().equals(vertexId) && placement.subtask() == subtask) {
        return placement.taskManagerId();
      }
    }
    throw new IllegalArgumentException("No placement for " + vertexId + " subtask " + subtask);
  }
}
