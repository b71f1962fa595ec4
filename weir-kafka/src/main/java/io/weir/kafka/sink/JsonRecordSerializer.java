package io.weir.kafka.sink;

import com.fasterxml.jackson.core.JacksonException;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.ObjectWriter;
import io.weir.kafka.format.Json;
import java.util.Objects;

/**
 * Writes a stream record (a Java record or a POJO) as the JSON value of a Kafka record, without key
 * (made by {@link KafkaRecordSerializer#json}; {@link KafkaRecordSerializer#builder} adds key,
 * headers, partition and timestamp). A value Jackson cannot write fails the sink's task with one
 * line naming its class and the cause.
 */
public final class JsonRecordSerializer<T> implements KafkaRecordSerializer<T> {
  private static final long serialVersionUID = 1L;

  private final ObjectMapper mapper;
  // Made on the sink's thread at the first record, after the job reached its process.
  private transient ObjectWriter writer;

  JsonRecordSerializer(ObjectMapper mapper) {
    this.mapper = Objects.requireNonNull(mapper, "mapper");
  }

  @Override
  public byte[] value(T record) {
    if (writer == null) {
      writer = mapper.writer();
    }
    try {
      return writer.writeValueAsBytes(record);
    } catch (JacksonException e) {
      throw new IllegalArgumentException(
          "Cannot write a "
              + record.getClass().getSimpleName()
              + " as JSON: "
              + Json.oneLine(e.getOriginalMessage()),
          e);
    }
  }
}
