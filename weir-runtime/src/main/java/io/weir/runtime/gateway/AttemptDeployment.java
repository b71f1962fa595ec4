package io.weir.runtime.gateway;

import io.weir.api.functions.LeaseEpoch;
import io.weir.runtime.checkpoint.CompletedCheckpoint;
import io.weir.runtime.operators.SplitDiscovery;
import java.util.List;
import java.util.Set;

/**
 * What the job manager deploys for one attempt: the same for every task manager, each creating the
 * subtasks placed on it.
 *
 * @param attempt 0 for the first attempt of the job, then one more per restart
 * @param restored the checkpoint or savepoint every subtask restores from, or null for none
 * @param placements every subtask of the job, not only those of one task manager
 * @param enumeratedSources the source tasks (vertex ids) whose readers get their splits from an
 *     enumerator on the job manager; the readers of the others find their own
 * @param leaseEpoch the lease the job manager holds on the job's checkpoint directory, the fencing
 *     token of the subtasks' sinks; {@link LeaseEpoch#NONE} on a cluster's task managers, which
 *     take their job manager's fencing instead (see docs/fencing.md)
 */
public record AttemptDeployment(
    int attempt,
    CompletedCheckpoint restored,
    List<SubtaskPlacement> placements,
    Set<String> enumeratedSources,
    LeaseEpoch leaseEpoch) {
  public AttemptDeployment {
    placements = List.copyOf(placements);
    enumeratedSources = Set.copyOf(enumeratedSources);
  }

  /** A deployment whose sinks fence with no lease. */
  public AttemptDeployment(
      int attempt,
      CompletedCheckpoint restored,
      List<SubtaskPlacement> placements,
      Set<String> enumeratedSources) {
    this(attempt, restored, placements, enumeratedSources, LeaseEpoch.NONE);
  }

  /** A deployment whose readers all find their own splits. */
  public AttemptDeployment(
      int attempt, CompletedCheckpoint restored, List<SubtaskPlacement> placements) {
    this(attempt, restored, placements, Set.of());
  }

  /** Who finds the splits of the source task {@code vertexId}. */
  public SplitDiscovery splitDiscoveryOf(String vertexId) {
    return enumeratedSources.contains(vertexId)
        ? SplitDiscovery.BY_ENUMERATOR
        : SplitDiscovery.BY_READERS;
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
