package io.weir.avro;

import io.weir.kafka.source.UnreadableValueException;
import java.io.ByteArrayOutputStream;
import java.io.Serializable;

/**
 * What comes before the Avro binary record in a Kafka record's value: nothing, or the Confluent
 * wire format's magic byte 0 and the schema's 4-byte big-endian id (as a schema registry would have
 * assigned it; the job gives it, nothing asks a registry).
 */
sealed interface AvroFraming extends Serializable {
  /** Writes the header before a record. */
  void writeHeader(ByteArrayOutputStream out);

  /** Checks the header of {@code value} and returns where the Avro record starts. */
  int readHeader(byte[] value) throws UnreadableValueException;

  /** The record's bytes only. */
  record Plain() implements AvroFraming {
    @Override
    public void writeHeader(ByteArrayOutputStream out) {}

    @Override
    public int readHeader(byte[] value) {
      return 0;
    }
  }

  /** Magic byte 0, then the schema id, then the record. */
  record Confluent(int schemaId) implements AvroFraming {
    private static final byte MAGIC_BYTE = 0;
    static final int HEADER_LENGTH = 5;

    @Override
    public void writeHeader(ByteArrayOutputStream out) {
      out.write(MAGIC_BYTE);
      out.write(schemaId >>> 24);
      out.write(schemaId >>> 16);
      out.write(schemaId >>> 8);
      out.write(schemaId);
    }

    @Override
    public int readHeader(byte[] value) throws UnreadableValueException {
      if (value.length < HEADER_LENGTH) {
        throw new UnreadableValueException(
            "the value has "
                + value.length
                + " bytes, fewer than the Confluent wire format's 5-byte header");
      }
      if (value[0] != MAGIC_BYTE) {
        throw new UnreadableValueException(
            String.format(
                "the value starts with byte 0x%02x, not the Confluent wire format's magic byte 0",
                value[0] & 0xFF));
      }
      int id =
          (value[1] & 0xFF) << 24
              | (value[2] & 0xFF) << 16
              | (value[3] & 0xFF) << 8
              | (value[4] & 0xFF);
      if (id != schemaId) {
        throw new UnreadableValueException(
            "the value has schema id " + id + ", the job reads schema id " + schemaId);
      }
      return HEADER_LENGTH;
    }
  }
}
