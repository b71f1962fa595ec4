package io.weir.avro;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowable;

import io.weir.kafka.source.UnreadableValueException;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import org.apache.avro.Schema;
import org.apache.avro.generic.GenericData;
import org.apache.avro.generic.GenericRecord;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.junit.jupiter.api.Test;

/** Avro binary values, plain and in the Confluent wire format, and the lines of bad ones. */
class AvroFormatTest {
  private static final Schema SCHEMA = AvroOrder.SCHEMA$;

  private final AvroFormat<AvroOrder> specific = AvroFormat.specific(AvroOrder.class);
  private final AvroFormat<AvroOrder> framed = specific.withConfluentSchemaId(42);

  @Test
  void when_aSpecificRecordIsWrittenAndRead_then_itComesBackEqual() throws Exception {
    AvroOrder order = new AvroOrder(7, "ada", 12.5);

    byte[] value = specific.serializer().value(order);

    assertThat(specific.deserializer().deserialize(record(value))).isEqualTo(order);
  }

  @Test
  void when_aGenericRecordIsWritten_then_aSpecificReaderOfTheSameSchemaReadsIt() throws Exception {
    GenericRecord generic = new GenericData.Record(SCHEMA);
    generic.put("id", 3L);
    generic.put("customer", "bea");
    generic.put("amount", 1.5);

    byte[] value = AvroFormat.generic(SCHEMA).serializer().value(generic);

    assertThat(specific.deserializer().deserialize(record(value)))
        .isEqualTo(new AvroOrder(3, "bea", 1.5));
    assertThat(AvroFormat.generic(SCHEMA).deserializer().deserialize(record(value)).toString())
        .isEqualTo(generic.toString());
  }

  @Test
  void when_framedForTheConfluentWireFormat_then_magicByteAndSchemaIdComeFirst() throws Exception {
    AvroOrder order = new AvroOrder(7, "ada", 12.5);

    byte[] value = framed.serializer().value(order);

    assertThat(Arrays.copyOf(value, 5)).containsExactly(0, 0, 0, 0, 42);
    assertThat(Arrays.copyOfRange(value, 5, value.length))
        .isEqualTo(specific.serializer().value(order));
    assertThat(framed.deserializer().deserialize(record(value))).isEqualTo(order);
  }

  @Test
  void when_theFramingIsWrong_then_theLineSaysWhat() {
    byte[] plain = specific.serializer().value(new AvroOrder(7, "ada", 12.5));
    byte[] otherId =
        specific.withConfluentSchemaId(43).serializer().value(new AvroOrder(1, "a", 1));

    assertThat(problemOf(framed, plain))
        .isEqualTo("the value starts with byte 0x0e, not the Confluent wire format's magic byte 0");
    assertThat(problemOf(framed, otherId))
        .isEqualTo("the value has schema id 43, the job reads schema id 42");
    assertThat(problemOf(framed, new byte[] {0, 0}))
        .isEqualTo("the value has 2 bytes, fewer than the Confluent wire format's 5-byte header");
  }

  @Test
  void when_theValueIsNotTheRecord_then_theLineNamesTheSchema() {
    byte[] value = specific.serializer().value(new AvroOrder(7, "ada", 12.5));

    assertThat(problemOf(specific, Arrays.copyOf(value, value.length - 3)))
        .isEqualTo(
            "not Avro of schema io.weir.avro.AvroOrder: the value ends before the record does");
    assertThat(problemOf(specific, Arrays.copyOf(value, value.length + 2)))
        .isEqualTo("not Avro of schema io.weir.avro.AvroOrder: bytes are left after the record");
    assertThat(problemOf(specific, "{\"id\": 7}".getBytes(StandardCharsets.UTF_8)))
        .startsWith("not Avro of schema io.weir.avro.AvroOrder: ");
    assertThat(problemOf(specific, null)).isEqualTo("the record has no value");
  }

  @Test
  void when_aRecordHasNullWhereTheSchemaHasNone_then_writingItFailsNamingTheSchema() {
    Throwable failure =
        catchThrowable(() -> specific.serializer().value(new AvroOrder(7, null, 1)));

    assertThat(failure)
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageStartingWith(
            "Cannot write a AvroOrder as Avro of schema io.weir.avro.AvroOrder: ")
        .hasMessageContaining("customer");
  }

  private static String problemOf(AvroFormat<AvroOrder> format, byte[] value) {
    Throwable failure = catchThrowable(() -> format.deserializer().deserialize(record(value)));
    assertThat(failure).isInstanceOf(UnreadableValueException.class);
    return failure.getMessage();
  }

  private static ConsumerRecord<byte[], byte[]> record(byte[] value) {
    return new ConsumerRecord<>("orders", 0, 0L, null, value);
  }
}
