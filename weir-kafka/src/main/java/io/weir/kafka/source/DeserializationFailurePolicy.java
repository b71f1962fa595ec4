package io.weir.kafka.source;

/**
 * What a Kafka source does with a record its deserializer cannot read. Such a record fails every
 * attempt the same way, so it is never retried.
 */
public enum DeserializationFailurePolicy {
  /**
   * With a dead-letter topic, write the record there and go on; without one, fail the job for good
   * with one line naming topic, partition, offset and cause. The default.
   */
  FAIL,
  /** Count the record, log its position and cause, and go on. */
  SKIP
}
