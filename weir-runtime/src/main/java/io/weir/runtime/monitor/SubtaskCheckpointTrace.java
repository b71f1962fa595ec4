package io.weir.runtime.monitor;

import java.io.Serializable;
import java.util.List;

/**
 * One subtask's part of one checkpoint, in wall-clock milliseconds.
 *
 * @param barrierMillis when its first barrier arrived (a source: when it was triggered)
 * @param alignedMillis when the last barrier arrived and it snapshotted, or 0 before that
 * @param notifications its chained operators told of the completion, in the order they were told
 */
public record SubtaskCheckpointTrace(
    long checkpointId,
    long barrierMillis,
    long alignedMillis,
    List<OperatorNotification> notifications)
    implements Serializable {

  public SubtaskCheckpointTrace {
    notifications = List.copyOf(notifications);
  }

  /** First barrier to snapshot; 0 until aligned. */
  public long alignmentMillis() {
    return alignedMillis == 0 ? 0 : alignedMillis - barrierMillis;
  }
}
