package io.weir.kafka.sink;

import io.weir.api.functions.Function;
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
}
