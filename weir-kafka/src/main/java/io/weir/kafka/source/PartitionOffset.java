package io.weir.kafka.source;

import io.weir.api.source.SourceSplit;
import org.apache.kafka.common.TopicPartition;

/**
 * A Kafka partition as a split, with the next offset to read in it: what a Kafka source keeps in
 * its checkpoints. A bounded source's split also carries where reading stops.
 *
 * @param stoppingOffset the offset before which a bounded source stops reading the partition (its
 *     end when the job first started), or null for a source that reads on; a split of a checkpoint
 *     written before splits carried it has none
 */
public record PartitionOffset(String topic, int partition, long offset, Long stoppingOffset)
    implements SourceSplit {
  /** A split that reads on without end. */
  public PartitionOffset(String topic, int partition, long offset) {
    this(topic, partition, offset, null);
  }

  @Override
  public String split() {
    return topic + "-" + partition;
  }

  @Override
  public long position() {
    return offset;
  }

  /** The same split at another position, with the same stop. */
  PartitionOffset withOffset(long next) {
    return new PartitionOffset(topic, partition, next, stoppingOffset);
  }

  TopicPartition topicPartition() {
    return new TopicPartition(topic, partition);
  }
}
