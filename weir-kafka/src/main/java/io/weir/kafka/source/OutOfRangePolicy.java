package io.weir.kafka.source;

/**
 * What a Kafka source does when the offset it must read next is no longer (or not yet) in the
 * partition's log, typically because retention deleted records the job had not read while it was
 * stopped or lagging. Kafka's own {@code auto.offset.reset} is never used: it would jump silently.
 */
public enum OutOfRangePolicy {
  /**
   * Fail the job, not restarted, naming the partition, the offset and the earliest available
   * offset. The default: nothing is skipped without the user's word.
   */
  FAIL,
  /** Go on from the earliest available offset, counting and logging the records skipped. */
  EARLIEST
}
