package io.weir.nexmark.flink;

import io.weir.nexmark.model.NexmarkJson;
import org.apache.flink.connector.kafka.sink.KafkaRecordSerializationSchema;
import org.apache.kafka.clients.producer.ProducerRecord;

/**
 * A result row as the JSON object Weir's queries write, without a key, to the results topic (the
 * producer spreads rows over its partitions).
 */
final class JsonResults<R> implements KafkaRecordSerializationSchema<R> {
  private final String topic;

  JsonResults(String topic) {
    this.topic = topic;
  }

  @Override
  public ProducerRecord<byte[], byte[]> serialize(
      R result, KafkaSinkContext context, Long timestamp) {
    return new ProducerRecord<>(topic, null, NexmarkJson.bytes(result));
  }
}
