package io.weir.avro;

import io.weir.kafka.source.KafkaRecordDeserializer;
import io.weir.kafka.source.UnreadableValueException;
import java.io.EOFException;
import java.io.IOException;
import org.apache.avro.AvroRuntimeException;
import org.apache.avro.io.BinaryDecoder;
import org.apache.avro.io.DatumReader;
import org.apache.avro.io.DecoderFactory;
import org.apache.kafka.clients.consumer.ConsumerRecord;

/**
 * Reads a Kafka record's value as one Avro binary record of the format's schema (made by {@link
 * AvroFormat#deserializer}). A value that is missing, framed otherwise, cut short, longer than the
 * record, or not of the schema fails with an {@link UnreadableValueException} whose one-line
 * message says why; the source adds topic, partition and offset.
 */
public final class AvroRecordDeserializer<T> implements KafkaRecordDeserializer<T> {
  private static final long serialVersionUID = 1L;

  private final AvroFormat<T> format;
  // Made on the source thread at the first record; the decoder is reused for every record.
  private transient DatumReader<T> reader;
  private transient BinaryDecoder decoder;
  private transient String schemaName;

  AvroRecordDeserializer(AvroFormat<T> format) {
    this.format = format;
  }

  @Override
  public T deserialize(ConsumerRecord<byte[], byte[]> record) throws IOException {
    return read(record.value());
  }

  /** {@code value} as a record; also for a job's own deserializer that reads keys or headers. */
  public T read(byte[] value) throws IOException {
    if (value == null) {
      throw new UnreadableValueException("the record has no value");
    }
    if (reader == null) {
      reader = format.reader();
      schemaName = format.schemaName();
    }
    int start = format.framing().readHeader(value);
    decoder = DecoderFactory.get().binaryDecoder(value, start, value.length - start, decoder);
    T read;
    try {
      read = reader.read(null, decoder);
    } catch (EOFException e) {
      throw new UnreadableValueException(
          "not Avro of schema " + schemaName + ": the value ends before the record does", e);
    } catch (AvroRuntimeException | IOException | IndexOutOfBoundsException e) {
      throw new UnreadableValueException(
          "not Avro of schema "
              + schemaName
              + ": "
              + e.getClass().getSimpleName()
              + ": "
              + e.getMessage(),
          e);
    }
    if (!decoder.isEnd()) {
      throw new UnreadableValueException(
          "not Avro of schema " + schemaName + ": bytes are left after the record");
    }
    return read;
  }
}
