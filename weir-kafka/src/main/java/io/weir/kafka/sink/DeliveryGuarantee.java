package io.weir.kafka.sink;

/** What a Kafka sink promises across failures. */
public enum DeliveryGuarantee {
  /** One Kafka transaction per checkpoint, committed when the checkpoint completes. */
  EXACTLY_ONCE,
  /** Flushed at every checkpoint: nothing lost, duplicates possible after a restore. */
  AT_LEAST_ONCE,
  /** Fire and forget. */
  NONE
}
