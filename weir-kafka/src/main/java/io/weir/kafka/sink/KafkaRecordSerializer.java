package io.weir.kafka.sink;

import com.fasterxml.jackson.databind.ObjectMapper;
import io.weir.api.functions.Function;
import io.weir.kafka.format.Json;
import java.nio.charset.StandardCharsets;
import org.apache.kafka.common.header.Header;

/** Turns a stream record into the value (and optionally the key) of a Kafka record. */
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
