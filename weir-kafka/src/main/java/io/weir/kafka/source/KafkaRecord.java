package io.weir.kafka.source;

import java.io.Serializable;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import org.apache.kafka.clients.consumer.ConsumerRecord;

/**
 * A Kafka record as a job sees it with {@link KafkaRecordDeserializer#withMetadata}: its value read
 * by the job's value deserializer, and where it comes from, its key, headers and timestamp as they
 * were read. Serializable (as long as the value is), so that it may cross to another task manager.
 *
 * @param key the key's bytes, or null for none
 * @param timestamp the record's timestamp, epoch milliseconds (create or log-append time, as the
 *     topic says)
 * @param headers every header in the record's order; a name may appear more than once
 */
public record KafkaRecord<V>(
    String topic,
    int partition,
    long offset,
    long timestamp,
    byte[] key,
    V value,
    List<Header> headers)
    implements Serializable {

  /** A header of a Kafka record; its value may be null. */
  public record Header(String name, byte[] value) implements Serializable {}

  public KafkaRecord {
    headers = List.copyOf(headers);
  }

  static <V> KafkaRecord<V> of(ConsumerRecord<byte[], byte[]> record, V value) {
    List<Header> headers = new ArrayList<>();
    for (org.apache.kafka.common.header.Header header : record.headers()) {
      headers.add(new Header(header.key(), header.value()));
    }
    return new KafkaRecord<>(
        record.topic(),
        record.partition(),
        record.offset(),
        record.timestamp(),
        record.key(),
        value,
        headers);
  }

  /** The key as UTF-8 text, or null for none. */
  public String keyText() {
    return key == null ? null : new String(key, StandardCharsets.UTF_8);
  }

  /** The value of the last header named {@code name}, or null when there is none. */
  public byte[] header(String name) {
    for (int i = headers.size() - 1; i >= 0; i--) {
      if (headers.get(i).name().equals(name)) {
        return headers.get(i).value();
      }
    }
    return null;
  }

  /** {@link #header} as UTF-8 text, or null. */
  public String headerText(String name) {
    byte[] value = header(name);
    return value == null ? null : new String(value, StandardCharsets.UTF_8);
  }
}
