package io.weir.kafka.source;

import java.util.Map;
import org.apache.kafka.common.TopicPartition;

/**
 * What a Kafka source subtask resolved when its reader was created: the assigned consumer, each
 * partition's next offset, the topic ids it knows, what the checkpoint held, and the clients beside
 * the consumer (group offsets, dead letters; either may be null), and whether the source's
 * enumerator assigns the partitions added later. The maps are the reader's own, written on the
 * task's thread.
 */
record KafkaSourceOpening(
    int subtaskIndex,
    int parallelism,
    PartitionReader partitions,
    Map<TopicPartition, Long> nextOffsets,
    Map<String, String> topicIds,
    RestoredPositions restored,
    OutOfRangeOffsets outOfRange,
    OffsetCommitter committer,
    DeadLetters deadLetters,
    boolean splitsFromEnumerator) {}
