package io.weir.kafka.source;

/**
 * Whether a Kafka source subtask knows which partitions are its own: AWAITING_FIRST_ASSIGNMENT ->
 * ASSIGNED. A subtask whose source's enumerator has not answered yet holds no partitions, but that
 * does not mean it has none to read: until the first assignment (an empty one too) it neither emits
 * a watermark nor marks itself idle, so that event time downstream waits for its records (as
 * Flink's watermark multiplexer holds back a reader without splits). A subtask that restored
 * partitions from a checkpoint, or finds its own, starts assigned.
 */
enum SplitAssignmentState {
  AWAITING_FIRST_ASSIGNMENT,
  ASSIGNED;

  /** The state a reader starts in. */
  static SplitAssignmentState atStart(boolean splitsFromEnumerator, boolean restoredPartitions) {
    return splitsFromEnumerator && !restoredPartitions ? AWAITING_FIRST_ASSIGNMENT : ASSIGNED;
  }
}
