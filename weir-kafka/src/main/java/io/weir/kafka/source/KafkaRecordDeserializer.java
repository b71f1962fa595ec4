package io.weir.kafka.source;

import io.weir.api.functions.Function;
import java.nio.charset.StandardCharsets;
import org.apache.kafka.clients.consumer.ConsumerRecord;

/** Turns a Kafka record into a stream record. Called on the source thread. */
@FunctionalInterface
public interface KafkaRecordDeserializer<T> extends Function {
  T deserialize(ConsumerRecord<byte[], byte[]> record) throws Exception;

  /** The value as UTF-8 text; a record without value fails. */
  static KafkaRecordDeserializer<String> utf8Values() {
    return record -> {
      if (record.value() == null) {
        throw new IllegalArgumentException("the record has no value");
      }
      return new String(record.value(), StandardCharsets.UTF_8);
    };
  }
}
