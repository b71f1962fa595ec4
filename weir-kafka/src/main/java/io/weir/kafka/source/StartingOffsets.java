package io.weir.kafka.source;

/**
 * Where a partition is read from when neither a restored checkpoint nor the consumer group has an
 * offset for it.
 */
public enum StartingOffsets {
  EARLIEST,
  LATEST,
  /** The first offset whose timestamp is at or after the configured timestamp. */
  TIMESTAMP
}
