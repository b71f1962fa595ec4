package io.weir.kafka.source;

/** What a Kafka source does with a record its deserializer cannot read. */
public enum DeserializationFailurePolicy {
  /** Fail the job, naming topic, partition, offset and cause. The default. */
  FAIL,
  /** Count the record, log its position, and go on. */
  SKIP
}
