package io.weir.kafka.sink;

import com.fasterxml.jackson.databind.ObjectMapper;
import io.weir.api.functions.Function;
import io.weir.kafka.format.Json;
import java.nio.charset.StandardCharsets;
import org.apache.kafka.common.header.Header;

/**
 * Turns a stream record into a Kafka record: its value, and optionally its key, headers, partition
 * and timestamp. Called on the sink's thread, one record at a time; may keep state that is not
 * shared across threads. An exception fails the sink's task (and the job restarts from its latest
 * checkpoint), so a record that cannot be written should say why in the exception's message. {@link
 * #builder} adds key, headers, partition and timestamp to a value serializer.
 */
public interface KafkaRecordSerializer<T> extends Function {
  byte[] value(T record);

  /** The record's key, or null for none (the default). */
  default byte[] key(T record) {
    return null;
  }

  /** The record's headers, or null for none (the default). */
  default Iterable<Header> headers(T record) {
    return null;
  }

  /**
   * The partition to write the record to, or null (the default) for the producer's partitioner,
   * which picks one by the key's hash (or spreads records without key).
   */
  default Integer partition(T record) {
    return null;
  }

  /**
   * The record's timestamp in epoch milliseconds, or null (the default) for the time of sending.
   */
  default Long timestamp(T record) {
    return null;
  }

  /**
   * A part of a Kafka record taken from a stream record, for {@link #builder}; null leaves the part
   * out.
   */
  @FunctionalInterface
  interface Part<T, R> extends Function {
    R of(T record);
  }

  /**
   * Records whose value {@code values} writes, and whose key, headers, partition and timestamp the
   * builder's parts take from each stream record:
   *
   * <pre>{@code
   * KafkaRecordSerializer.builder(KafkaRecordSerializer.<Order>json())
   *     .key(order -> order.customer().getBytes(UTF_8))
   *     .header("order-id", order -> Long.toString(order.id()).getBytes(UTF_8))
   *     .timestamp(Order::placedAt)
   *     .build();
   * }</pre>
   */
  static <T> KafkaRecordSerializerBuilder<T> builder(KafkaRecordSerializer<T> values) {
    return new KafkaRecordSerializerBuilder<>(values);
  }

  /** {@code toString()} as UTF-8, no key. */
  static <T> KafkaRecordSerializer<T> utf8() {
    return record -> record.toString().getBytes(StandardCharsets.UTF_8);
  }

  /** The bytes as they are, no key. */
  static KafkaRecordSerializer<byte[]> bytes() {
    return record -> record;
  }

  /** The record (a Java record or a POJO) as JSON, no key. */
  static <T> JsonRecordSerializer<T> json() {
    return new JsonRecordSerializer<>(Json.strictMapper());
  }

  /** The record as JSON written by the job's own {@code mapper}, no key. */
  static <T> JsonRecordSerializer<T> json(ObjectMapper mapper) {
    return new JsonRecordSerializer<>(mapper);
  }
}
