package io.weir.kafka.source;

import io.weir.api.source.SourcePosition;

/** The next offset to read of one partition: what a Kafka source keeps in its checkpoints. */
public record PartitionOffset(String topic, int partition, long offset) implements SourcePosition {
  @Override
  public String split() {
    return topic + "-" + partition;
  }

  @Override
  public long position() {
    return offset;
  }
}
