package io.weir.kafka.source;

import io.weir.api.source.SourceSplit;

/**
 * A Kafka partition as a split, with the next offset to read in it: what a Kafka source keeps in
 * its checkpoints.
 */
public record PartitionOffset(String topic, int partition, long offset) implements SourceSplit {
  @Override
  public String split() {
    return topic + "-" + partition;
  }

  @Override
  public long position() {
    return offset;
  }
}
