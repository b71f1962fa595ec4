package io.weir.runtime.monitor;

import io.weir.api.graph.OperatorSpec;
import io.weir.api.graph.Transformation;
import io.weir.runtime.checkpoint.CheckpointStats;
import io.weir.runtime.checkpoint.SubtaskKey;
import io.weir.runtime.graph.JobGraph;
import io.weir.runtime.graph.JobVertex;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * Joins what the job manager saw of each checkpoint (trigger, acknowledgements, {@code _metadata},
 * notifications) with what each subtask saw (barrier, alignment, its operators' notifications), in
 * the order of the job's tasks and subtasks.
 */
public final class CheckpointTimelines {
  private final JobGraph graph;
  private final Map<String, Transformation> operatorsByUid = new HashMap<>();

  public CheckpointTimelines(JobGraph graph) {
    this.graph = graph;
    graph.operators().forEach(t -> operatorsByUid.put(t.uid(), t));
  }

  /**
   * @param history the job manager's checkpoints, newest first
   * @param traces each subtask's recent checkpoint traces (subtasks not known here are left out of
   *     the per-subtask steps except for their acknowledgement)
   */
  public List<CheckpointTimeline> of(
      List<CheckpointStats> history, Map<SubtaskKey, List<SubtaskCheckpointTrace>> traces) {
    List<CheckpointTimeline> timelines = new ArrayList<>(history.size());
    for (CheckpointStats stats : history) {
      timelines.add(timeline(stats, traces));
    }
    return timelines;
  }

  private CheckpointTimeline timeline(
      CheckpointStats stats, Map<SubtaskKey, List<SubtaskCheckpointTrace>> traces) {
    List<CheckpointTimeline.SubtaskStep> steps = new ArrayList<>();
    for (JobVertex vertex : graph.vertices()) {
      for (int subtask = 0; subtask < vertex.parallelism(); subtask++) {
        CheckpointStats.Ack ack = ackOf(stats, vertex.id(), subtask);
        SubtaskCheckpointTrace trace =
            traceOf(traces.get(new SubtaskKey(vertex.id(), subtask)), stats.checkpointId());
        steps.add(
            new CheckpointTimeline.SubtaskStep(
                vertex.id(),
                vertex.name(),
                subtask,
                trace == null ? 0 : trace.barrierMillis(),
                trace == null ? 0 : trace.alignmentMillis(),
                ack == null ? 0 : stats.triggerMillis() + ack.afterMillis(),
                ack == null ? 0 : ack.sizeBytes(),
                trace == null ? List.of() : notifications(trace)));
      }
    }
    return new CheckpointTimeline(
        stats.checkpointId(),
        stats.savepoint() ? "savepoint" : "checkpoint",
        stats.status().name(),
        stats.triggerMillis(),
        stats.durationMillis(),
        stats.sizeBytes(),
        stats.metadataMillis(),
        stats.notifiedMillis(),
        stats.failure(),
        steps);
  }

  private List<CheckpointTimeline.NotificationStep> notifications(SubtaskCheckpointTrace trace) {
    List<CheckpointTimeline.NotificationStep> steps = new ArrayList<>();
    for (OperatorNotification notification : trace.notifications()) {
      Transformation operator = operatorsByUid.get(notification.operatorUid());
      boolean sink = operator != null && operator.spec() instanceof OperatorSpec.Sink;
      String outcome =
          notification.failure() != null
              ? "FAILED: " + notification.failure()
              : sink ? "COMMITTED" : "NOTIFIED";
      steps.add(
          new CheckpointTimeline.NotificationStep(
              notification.operatorUid(),
              operator == null ? notification.operatorUid() : operator.displayName(),
              sink,
              notification.startMillis(),
              notification.endMillis(),
              outcome));
    }
    return steps;
  }

  private static CheckpointStats.Ack ackOf(CheckpointStats stats, String taskId, int subtask) {
    for (CheckpointStats.Ack ack : stats.acks()) {
      if (ack.taskId().equals(taskId) && ack.subtaskIndex() == subtask) {
        return ack;
      }
    }
    return null;
  }

  private static SubtaskCheckpointTrace traceOf(
      List<SubtaskCheckpointTrace> traces, long checkpointId) {
    if (traces == null) {
      return null;
    }
    for (SubtaskCheckpointTrace trace : traces) {
      if (trace.checkpointId() == checkpointId) {
        return trace;
      }
    }
    return null;
  }
}
