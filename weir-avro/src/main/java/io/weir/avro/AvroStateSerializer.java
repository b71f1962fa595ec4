package io.weir.avro;

import io.weir.api.state.StateSerializer;
import io.weir.api.types.EvolvingSerializer;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.ObjectInputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import org.apache.avro.Schema;
import org.apache.avro.SchemaCompatibility;
import org.apache.avro.io.BinaryEncoder;
import org.apache.avro.io.DatumReader;
import org.apache.avro.io.DatumWriter;
import org.apache.avro.io.DecoderFactory;
import org.apache.avro.io.EncoderFactory;

/**
 * Avro records of the job's schema as state values, in Avro binary. A checkpoint keeps the schema
 * once per state; a restore reads the values through Avro's schema resolution, with the schema they
 * were written with as the writer's and the job's as the reader's: a field added with a default
 * gets it, a removed field is skipped, and a change Avro cannot resolve refuses the restore in one
 * line naming the state, the operator and the field. Made by {@link AvroFormat#stateSerializer()}:
 *
 * <pre>{@code
 * new ValueStateDescriptor<>("session", AvroFormat.generic(SESSION_SCHEMA).stateSerializer())
 * }</pre>
 */
public final class AvroStateSerializer<T> implements EvolvingSerializer<T> {
  private static final long serialVersionUID = 1L;

  private final AvroFormat<T> format;
  private transient Schema schema;
  private transient DatumWriter<T> writer;
  private transient DatumReader<T> reader;

  AvroStateSerializer(AvroFormat<T> format) {
    this.format = format;
    build();
  }

  @Override
  public byte[] serialize(T value) {
    return write(writer, value);
  }

  @Override
  public T deserialize(byte[] bytes) {
    return read(reader, bytes);
  }

  /** The schema's JSON text in UTF-8. */
  @Override
  public byte[] schema() {
    return schema.toString().getBytes(StandardCharsets.UTF_8);
  }

  @Override
  public StateSerializer<T> readerOf(byte[] writtenSchema) {
    Schema written = new Schema.Parser().parse(new String(writtenSchema, StandardCharsets.UTF_8));
    if (written.equals(schema)) {
      return this;
    }
    AvroIncompatibility.maybeRefuse(
        SchemaCompatibility.checkReaderWriterCompatibility(schema, written), schema);
    DatumReader<T> resolving = format.reader(written);
    return new StateSerializer<>() {
      @Override
      public byte[] serialize(T value) {
        return AvroStateSerializer.this.serialize(value);
      }

      @Override
      public T deserialize(byte[] bytes) {
        return read(resolving, bytes);
      }
    };
  }

  private static <T> byte[] write(DatumWriter<T> writer, T value) {
    ByteArrayOutputStream bytes = new ByteArrayOutputStream(64);
    BinaryEncoder encoder = EncoderFactory.get().directBinaryEncoder(bytes, null);
    try {
      writer.write(value, encoder);
      encoder.flush();
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
    return bytes.toByteArray();
  }

  private static <T> T read(DatumReader<T> reader, byte[] bytes) {
    try {
      return reader.read(null, DecoderFactory.get().binaryDecoder(bytes, null));
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  private void build() {
    schema = format.schema();
    writer = format.writer();
    reader = format.reader();
  }

  private void readObject(ObjectInputStream in) throws IOException, ClassNotFoundException {
    in.defaultReadObject();
    build();
  }

  @Override
  public String toString() {
    return "AvroStateSerializer(" + format.schemaName() + ")";
  }
}
