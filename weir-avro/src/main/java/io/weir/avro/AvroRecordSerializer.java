package io.weir.avro;

import io.weir.kafka.sink.KafkaRecordSerializer;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import org.apache.avro.AvroRuntimeException;
import org.apache.avro.io.BinaryEncoder;
import org.apache.avro.io.DatumWriter;
import org.apache.avro.io.EncoderFactory;

/**
 * Writes a stream record as one Avro binary record of the format's schema, no key (made by {@link
 * AvroFormat#serializer}; {@link KafkaRecordSerializer#builder} adds key, headers, partition and
 * timestamp). A record the schema cannot hold (a null where the schema has none) fails the sink's
 * task with one line naming the schema and the field.
 */
public final class AvroRecordSerializer<T> implements KafkaRecordSerializer<T> {
  private static final long serialVersionUID = 1L;

  private final AvroFormat<T> format;
  // Made on the sink's thread at the first record; buffer and encoder are reused for every record.
  private transient DatumWriter<T> writer;
  private transient ByteArrayOutputStream buffer;
  private transient BinaryEncoder encoder;

  AvroRecordSerializer(AvroFormat<T> format) {
    this.format = format;
  }

  @Override
  public byte[] value(T record) {
    if (writer == null) {
      writer = format.writer();
      buffer = new ByteArrayOutputStream();
    }
    buffer.reset();
    format.framing().writeHeader(buffer);
    encoder = EncoderFactory.get().directBinaryEncoder(buffer, encoder);
    try {
      writer.write(record, encoder);
      encoder.flush();
    } catch (IOException | AvroRuntimeException | NullPointerException | ClassCastException e) {
      throw new IllegalArgumentException(
          "Cannot write a "
              + record.getClass().getSimpleName()
              + " as Avro of schema "
              + format.schemaName()
              + ": "
              + e.getMessage(),
          e);
    }
    return buffer.toByteArray();
  }
}
