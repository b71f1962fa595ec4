package io.weir.kafka.source;

import java.util.Map;
import org.apache.kafka.clients.consumer.ConsumerRecords;
import org.apache.kafka.common.TopicPartition;

/**
 * What the fetcher hands the reader after one poll: the records, the partitions it started reading
 * (with their start offsets), the partitions it moved (out of range) and the ids of topics it
 * learned, or the end of a bounded source, or the failure that stopped it. The reader applies the
 * positions before it emits the records, so a checkpoint in between holds them.
 */
record KafkaFetch(
    ConsumerRecords<byte[], byte[]> records,
    Map<TopicPartition, Long> positions,
    Map<String, String> topicIds,
    boolean end,
    RuntimeException failure) {
  static final KafkaFetch END =
      new KafkaFetch(ConsumerRecords.empty(), Map.of(), Map.of(), true, null);

  static KafkaFetch failed(RuntimeException failure) {
    return new KafkaFetch(ConsumerRecords.empty(), Map.of(), Map.of(), false, failure);
  }

  boolean isEmpty() {
    return records.isEmpty() && positions.isEmpty() && topicIds.isEmpty() && !end;
  }
}
