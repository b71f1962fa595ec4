package io.weir.kafka.source;

/**
 * Which subtask reads a partition: deterministic, so every subtask agrees without talking, and the
 * partitions of one topic are spread round robin from a topic-dependent start.
 */
final class PartitionAssigner {
  private PartitionAssigner() {}

  static int subtaskOf(String topic, int partition, int parallelism) {
    int start = ((topic.hashCode() * 31) & 0x7FFFFFFF) % parallelism;
    return (start + partition) % parallelism;
  }
}
