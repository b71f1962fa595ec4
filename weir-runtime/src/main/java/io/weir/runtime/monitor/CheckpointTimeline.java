package io.weir.runtime.monitor;

import java.util.List;

/**
 * One checkpoint as the protocol ran it, every time in wall-clock milliseconds (0: not yet, or not
 * seen): trigger, each subtask's barrier, alignment and acknowledgement, the {@code _metadata} that
 * made it complete, the notifications, and each chained operator's handling of its notification in
 * the order the task ran them (a sink's is its commit).
 *
 * @param kind {@code checkpoint} or {@code savepoint}
 * @param status {@code IN_PROGRESS}, {@code COMPLETED} or {@code ABORTED}
 */
public record CheckpointTimeline(
    long id,
    String kind,
    String status,
    long triggerMillis,
    long durationMillis,
    long sizeBytes,
    long metadataMillis,
    long notifiedMillis,
    String failure,
    List<SubtaskStep> subtasks) {

  public CheckpointTimeline {
    subtasks = List.copyOf(subtasks);
  }

  /**
   * One subtask's part.
   *
   * @param alignmentMillis first barrier to the snapshot (0 for a source or a single input)
   */
  public record SubtaskStep(
      String taskId,
      String taskName,
      int subtask,
      long barrierMillis,
      long alignmentMillis,
      long ackMillis,
      long sizeBytes,
      List<NotificationStep> notifications) {

    public SubtaskStep {
      notifications = List.copyOf(notifications);
    }
  }

  /**
   * One chained operator told of the completion.
   *
   * @param outcome {@code COMMITTED} (a sink), {@code NOTIFIED} (any other operator) or {@code
   *     FAILED: <message>}
   */
  public record NotificationStep(
      String operatorUid,
      String operatorName,
      boolean sink,
      long startMillis,
      long endMillis,
      String outcome) {}
}
