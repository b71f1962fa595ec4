package io.weir.kafka.sink;

import io.weir.kafka.sink.KafkaRecordSerializer.Part;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import org.apache.kafka.common.header.Header;
import org.apache.kafka.common.header.internals.RecordHeader;

/**
 * Adds key, headers, partition and timestamp to a value serializer (made by {@link
 * KafkaRecordSerializer#builder}). Each part is a function of the stream record; a part that
 * returns null is left out of that record.
 */
public final class KafkaRecordSerializerBuilder<T> {
  private final KafkaRecordSerializer<T> values;
  private Part<T, byte[]> key;
  private final Map<String, Part<T, byte[]>> headers = new LinkedHashMap<>();
  private Part<T, Integer> partition;
  private Part<T, Long> timestamp;

  KafkaRecordSerializerBuilder(KafkaRecordSerializer<T> values) {
    this.values = Objects.requireNonNull(values, "values");
  }

  public KafkaRecordSerializerBuilder<T> key(Part<T, byte[]> key) {
    this.key = key;
    return this;
  }

  /** A header named {@code name}; headers keep the order they are added in. */
  public KafkaRecordSerializerBuilder<T> header(String name, Part<T, byte[]> value) {
    if (headers.putIfAbsent(Objects.requireNonNull(name, "name"), value) != null) {
      throw new IllegalArgumentException("Header '" + name + "' is set twice");
    }
    return this;
  }

  /** The partition, which must exist in the sink's topic; without it, the producer picks one. */
  public KafkaRecordSerializerBuilder<T> partition(Part<T, Integer> partition) {
    this.partition = partition;
    return this;
  }

  /** The timestamp in epoch milliseconds; without it, the time of sending. */
  public KafkaRecordSerializerBuilder<T> timestamp(Part<T, Long> timestamp) {
    this.timestamp = timestamp;
    return this;
  }

  public KafkaRecordSerializer<T> build() {
    return new Composed<>(values, key, new LinkedHashMap<>(headers), partition, timestamp);
  }

  private record Composed<T>(
      KafkaRecordSerializer<T> values,
      Part<T, byte[]> keyPart,
      LinkedHashMap<String, Part<T, byte[]>> headerParts,
      Part<T, Integer> partitionPart,
      Part<T, Long> timestampPart)
      implements KafkaRecordSerializer<T> {

    @Override
    public byte[] value(T record) {
      return values.value(record);
    }

    @Override
    public byte[] key(T record) {
      return keyPart == null ? values.key(record) : keyPart.of(record);
    }

    @Override
    public Iterable<Header> headers(T record) {
      if (headerParts.isEmpty()) {
        return values.headers(record);
      }
      List<Header> headers = new ArrayList<>(headerParts.size());
      Iterable<Header> valueHeaders = values.headers(record);
      if (valueHeaders != null) {
        valueHeaders.forEach(headers::add);
      }
      headerParts.forEach(
          (name, part) -> {
            byte[] value = part.of(record);
            if (value != null) {
              headers.add(new RecordHeader(name, value));
            }
          });
      return headers;
    }

    @Override
    public Integer partition(T record) {
      return partitionPart == null ? values.partition(record) : partitionPart.of(record);
    }

    @Override
    public Long timestamp(T record) {
      return timestampPart == null ? values.timestamp(record) : timestampPart.of(record);
    }
  }
}
