package io.weir.kafka.source;

import com.fasterxml.jackson.databind.ObjectMapper;
import io.weir.api.functions.Function;
import io.weir.kafka.format.Json;
import java.nio.charset.StandardCharsets;
import org.apache.kafka.clients.consumer.ConsumerRecord;

/**
 * Turns a Kafka record into a stream record. Called on the source's thread, one record at a time in
 * offset order per partition; may keep state that is not shared across threads. Returning {@code
 * null} drops the record. Throwing (best an {@link UnreadableValueException} whose message says in
 * one line what is wrong) follows the source's {@link DeserializationFailurePolicy}: the source
 * names the record's topic, partition and offset and fails the job, skips the record, or writes it
 * to the dead-letter topic.
 */
@FunctionalInterface
public interface KafkaRecordDeserializer<T> extends Function {
  T deserialize(ConsumerRecord<byte[], byte[]> record) throws Exception;

  /** The value as UTF-8 text; a record without value fails. */
  static KafkaRecordDeserializer<String> utf8Values() {
    return record -> new String(valueOf(record), StandardCharsets.UTF_8);
  }

  /** The value's bytes as they are; a record without value fails. */
  static KafkaRecordDeserializer<byte[]> bytes() {
    return KafkaRecordDeserializer::valueOf;
  }

  /**
   * The value as JSON, read into {@code type} (a Java record or a POJO) by {@link
   * Json#strictMapper()}: a missing record component, a null for a primitive or a value of the
   * wrong type fails; unknown fields are ignored.
   */
  static <T> JsonRecordDeserializer<T> json(Class<T> type) {
    return new JsonRecordDeserializer<>(type, Json.strictMapper());
  }

  /** The value as JSON, read into {@code type} by the job's own {@code mapper}. */
  static <T> JsonRecordDeserializer<T> json(Class<T> type, ObjectMapper mapper) {
    return new JsonRecordDeserializer<>(type, mapper);
  }

  /**
   * The whole record — topic, partition, offset, timestamp, key and headers — with its value read
   * by {@code values}, for a job that maps them to a type of its own: {@code
   * withMetadata(json(Order.class))} gives {@code KafkaRecord<Order>}; a value {@code values} drops
   * (null) drops the record. (A deserializer of its own sees the whole {@link ConsumerRecord} too,
   * as every deserializer does.)
   */
  static <V> KafkaRecordDeserializer<KafkaRecord<V>> withMetadata(
      KafkaRecordDeserializer<V> values) {
    return record -> {
      V value = values.deserialize(record);
      return value == null ? null : KafkaRecord.of(record, value);
    };
  }

  private static byte[] valueOf(ConsumerRecord<byte[], byte[]> record)
      throws UnreadableValueException {
    if (record.value() == null) {
      throw new UnreadableValueException("the record has no value");
    }
    return record.value();
  }
}
