package io.weir.kafka.source;

import com.fasterxml.jackson.core.JacksonException;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.ObjectReader;
import io.weir.kafka.format.Json;
import java.io.IOException;
import java.util.Objects;
import org.apache.kafka.clients.consumer.ConsumerRecord;

/**
 * Reads a Kafka record's value as JSON into a Java record or a POJO (made by {@link
 * KafkaRecordDeserializer#json}). A value that is missing, not JSON, or JSON that does not fit the
 * type fails with {@link UnreadableValueException}, whose one-line message says why; the source
 * adds the record's topic, partition and offset and follows its deserialization failure policy.
 */
public final class JsonRecordDeserializer<T> implements KafkaRecordDeserializer<T> {
  private static final long serialVersionUID = 1L;

  private final Class<T> type;
  private final ObjectMapper mapper;
  // Made on the source thread at the first record, after the job reached its process.
  private transient ObjectReader reader;

  JsonRecordDeserializer(Class<T> type, ObjectMapper mapper) {
    this.type = Objects.requireNonNull(type, "type");
    this.mapper = Objects.requireNonNull(mapper, "mapper");
  }

  @Override
  public T deserialize(ConsumerRecord<byte[], byte[]> record) throws IOException {
    return read(record.value());
  }

  /** {@code value} as {@code T}; also for a job's own deserializer that reads keys or headers. */
  public T read(byte[] value) throws IOException {
    if (value == null) {
      throw new UnreadableValueException("the record has no value");
    }
    if (value.length == 0) {
      throw new UnreadableValueException("the record's value is empty, not JSON");
    }
    if (reader == null) {
      reader = mapper.readerFor(type);
    }
    try {
      return reader.readValue(value);
    } catch (JacksonException e) {
      throw new UnreadableValueException(Json.problem(e, type), e);
    }
  }
}
