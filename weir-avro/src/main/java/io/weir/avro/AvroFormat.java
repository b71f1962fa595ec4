package io.weir.avro;

import java.io.Serializable;
import java.util.Objects;
import org.apache.avro.Schema;
import org.apache.avro.generic.GenericDatumReader;
import org.apache.avro.generic.GenericDatumWriter;
import org.apache.avro.generic.GenericRecord;
import org.apache.avro.io.DatumReader;
import org.apache.avro.io.DatumWriter;
import org.apache.avro.specific.SpecificData;
import org.apache.avro.specific.SpecificDatumReader;
import org.apache.avro.specific.SpecificDatumWriter;
import org.apache.avro.specific.SpecificRecord;

/**
 * Avro binary records of one schema, given by the job, as Kafka record values:
 *
 * <pre>{@code
 * AvroFormat<Order> orders = AvroFormat.specific(Order.class).withConfluentSchemaId(42);
 * source.deserializer(orders.deserializer());
 * sink.serializer(orders.serializer());
 * }</pre>
 *
 * Specific records are classes generated from the schema (the schema is the class's); generic
 * records follow a {@link Schema} the job parses. Values are the record's bytes alone, or with the
 * Confluent wire format's magic byte and 4-byte schema id before them.
 */
public final class AvroFormat<T> implements Serializable {
  private static final long serialVersionUID = 1L;

  // Text, since a parsed Schema need not survive Java serialization across Avro versions.
  private final String schema;
  private final Class<T> specificType;
  private final AvroFraming framing;

  private AvroFormat(String schema, Class<T> specificType, AvroFraming framing) {
    this.schema = schema;
    this.specificType = specificType;
    this.framing = framing;
  }

  /** Generic records of {@code schema}. */
  public static AvroFormat<GenericRecord> generic(Schema schema) {
    return new AvroFormat<>(schema.toString(), null, new AvroFraming.Plain());
  }

  /** Records of a class generated from an Avro schema, by that schema. */
  public static <T extends SpecificRecord> AvroFormat<T> specific(Class<T> type) {
    Schema schema = SpecificData.get().getSchema(Objects.requireNonNull(type, "type"));
    return new AvroFormat<>(schema.toString(), type, new AvroFraming.Plain());
  }

  /**
   * The same records in the Confluent wire format: magic byte 0 and {@code schemaId} (4 bytes,
   * big-endian) before each; a value read with another id or without the magic byte is unreadable.
   */
  public AvroFormat<T> withConfluentSchemaId(int schemaId) {
    return new AvroFormat<>(schema, specificType, new AvroFraming.Confluent(schemaId));
  }

  public AvroRecordDeserializer<T> deserializer() {
    return new AvroRecordDeserializer<>(this);
  }

  public AvroRecordSerializer<T> serializer() {
    return new AvroRecordSerializer<>(this);
  }

  /**
   * A serializer of state values of this format's schema (its framing does not apply), which
   * restores values written with an earlier version of the schema by Avro's schema resolution.
   */
  public AvroStateSerializer<T> stateSerializer() {
    return new AvroStateSerializer<>(this);
  }

  Schema schema() {
    return new Schema.Parser().parse(schema);
  }

  AvroFraming framing() {
    return framing;
  }

  DatumReader<T> reader() {
    return reader(schema());
  }

  /** A reader of values written with {@code written}, resolved into this format's schema. */
  @SuppressWarnings("unchecked")
  DatumReader<T> reader(Schema written) {
    return specificType == null
        ? (DatumReader<T>) new GenericDatumReader<GenericRecord>(written, schema())
        : new SpecificDatumReader<>(written, schema(), specificData());
  }

  @SuppressWarnings("unchecked")
  DatumWriter<T> writer() {
    return specificType == null
        ? (DatumWriter<T>) new GenericDatumWriter<GenericRecord>(schema())
        : new SpecificDatumWriter<>(schema(), specificData());
  }

  private SpecificData specificData() {
    return new JobSpecificData(specificType, schema());
  }

  /** The schema's full name, for messages. */
  String schemaName() {
    return schema().getFullName();
  }
}
