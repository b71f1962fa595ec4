package io.weir.cluster.exchange;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import example.legacy.Legacy;
import io.weir.api.state.StateSerializer;
import io.weir.cluster.ReadingsJob.Reading;
import io.weir.cluster.ReadingsJob.ReadingSerializer;
import io.weir.runtime.exchange.Batch;
import io.weir.runtime.exchange.RecordEncoding;
import io.weir.runtime.exchange.StreamEvent;
import java.io.IOException;
import java.io.Serializable;
import java.net.URL;
import java.net.URLClassLoader;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.Test;

class BatchCodecTest {
  record WordCount(String word, long count) implements Serializable {}

  @Test
  void when_batchOfRecordsAndEventsIsEncoded_then_decodingGivesTheSameElementsInOrder()
      throws Exception {
    Object[] values = {
      "a",
      42L,
      new StreamEvent.Watermark(7),
      StreamEvent.IDLE,
      new StreamEvent.CheckpointBarrier(3, 99),
      StreamEvent.END_OF_DATA
    };
    long[] timestamps = {1, 2, Long.MIN_VALUE, Long.MIN_VALUE, Long.MIN_VALUE, Long.MIN_VALUE};

    Batch decoded = roundTrip(Batch.of(5, values, timestamps));

    assertThat(decoded.channel()).isEqualTo(5);
    assertThat(decoded.size()).isEqualTo(values.length);
    for (int i = 0; i < values.length; i++) {
      assertThat(decoded.value(i)).isEqualTo(values[i]);
      assertThat(decoded.timestamp(i)).isEqualTo(timestamps[i]);
    }
    assertThat(decoded.value(5)).isSameAs(StreamEvent.END_OF_DATA);
  }

  @Test
  void when_recordsAreOfEveryEncodedType_then_eachComesBackEqualAndOfItsType() throws Exception {
    Object[] values = {
      "",
      "grüße, 世界 🚀",
      "x".repeat(70_000),
      Long.MIN_VALUE,
      -1,
      Math.PI,
      Boolean.TRUE,
      new WordCount("weir", 3),
      new WordCount("weir", 4),
      List.of("a", "b")
    };
    long[] timestamps = new long[values.length];

    Batch decoded = roundTrip(Batch.of(0, values, timestamps));

    for (int i = 0; i < values.length; i++) {
      assertThat(decoded.value(i)).isEqualTo(values[i]).hasSameClassAs(values[i]);
    }
  }

  @Test
  void when_recordIsAByteArray_then_itsBytesComeBack() throws Exception {
    byte[] bytes = {0, -1, 127, -128, 42};

    Batch decoded = roundTrip(Batch.of(0, new Object[] {bytes, new byte[0]}, new long[2]));

    assertThat((byte[]) decoded.value(0)).containsExactly(bytes);
    assertThat((byte[]) decoded.value(1)).isEmpty();
  }

  @Test
  void when_theStreamDeclaredASerializer_then_recordsTravelThroughItAndEventsAsBefore()
      throws Exception {
    // given: records that are not Serializable, between a barrier and the end of data
    Object[] values = {
      new Reading(7),
      new StreamEvent.CheckpointBarrier(3, 99),
      new Reading(-1),
      StreamEvent.END_OF_DATA
    };
    long[] timestamps = {1, Long.MIN_VALUE, 2, Long.MIN_VALUE};
    StateSerializer<Reading> serializer = new ReadingSerializer();

    // when: the channel of the batch has the serializer at both ends
    byte[] payload = BatchCodec.encode(Batch.of(3, values, timestamps), declared(serializer));
    Batch decoded =
        BatchCodec.decode(
            payload, getClass().getClassLoader(), channel -> channel == 3 ? serializer : null);

    // then
    assertThat(((Reading) decoded.value(0)).id()).isEqualTo(7);
    assertThat(decoded.value(1)).isEqualTo(values[1]);
    assertThat(((Reading) decoded.value(2)).id()).isEqualTo(-1);
    assertThat(decoded.value(3)).isSameAs(StreamEvent.END_OF_DATA);
    assertThat(decoded.timestamp(2)).isEqualTo(2);
  }

  @Test
  void when_aDeclaredRecordArrivesOnAChannelWithoutItsSerializer_then_decodingFailsSayingSo()
      throws Exception {
    byte[] payload =
        BatchCodec.encode(
            Batch.of(0, new Object[] {new Reading(1)}, new long[1]),
            declared(new ReadingSerializer()));

    assertThatThrownBy(
            () -> BatchCodec.decode(payload, getClass().getClassLoader(), channel -> null))
        .isInstanceOf(IOException.class)
        .hasMessageContaining("declared serializer");
  }

  /** Neither {@code Serializable} nor declared: only its default serializer can write it. */
  record Measurement(long id, String sensor, List<Double> values) {}

  @Test
  void when_undeclaredRecordsAreNotSerializable_then_theyTravelByTheirClassNamedOncePerBatch()
      throws Exception {
    Object[] values = new Object[100];
    for (int i = 0; i < values.length; i++) {
      values[i] = i % 10 == 0 ? "text-" + i : new Measurement(i, "s" + i % 3, List.of(i * 0.5));
    }
    Batch batch = Batch.of(0, values, new long[values.length]);

    byte[] encoded = BatchCodec.encode(batch, OWN);
    Batch decoded = BatchCodec.decode(encoded, getClass().getClassLoader(), channel -> null);

    for (int i = 0; i < values.length; i++) {
      assertThat(decoded.value(i)).isEqualTo(values[i]);
    }
    String payload = new String(encoded, java.nio.charset.StandardCharsets.ISO_8859_1);
    assertThat(payload.split(java.util.regex.Pattern.quote(Measurement.class.getName()), -1))
        .hasSize(2);
  }

  @Test
  void
      when_aRecordHasNoSerializerAndTheJobDidNotAllowJava_then_encodingFailsNamingClassAndOperator() {
    Batch batch = Batch.of(0, new Object[] {new Legacy(1)}, new long[1]);

    assertThatThrownBy(() -> BatchCodec.encode(batch, OWN))
        .isInstanceOf(IOException.class)
        .hasMessage(
            "records of "
                + Legacy.class.getName()
                + " from operator 'Readings' have no serializer: make the class a record or a"
                + " POJO, declare one with withSerializer, or allow Java serialization for it");
  }

  @Test
  void when_theJobAllowedJavaSerializationForTheClass_then_itsRecordsTravelByIt() throws Exception {
    // given: the class in a job jar of its own, as a submitted job has it
    URL classes = Legacy.class.getProtectionDomain().getCodeSource().getLocation();
    try (URLClassLoader jobLoader = new URLClassLoader(new URL[] {classes}, null)) {
      Class<?> legacy = jobLoader.loadClass(Legacy.class.getName());
      Object record = legacy.getConstructor(long.class).newInstance(7L);
      RecordEncoding allowed = new RecordEncoding(null, Set.of(legacy), "Readings");

      // when
      Batch decoded =
          BatchCodec.decode(
              BatchCodec.encode(Batch.of(0, new Object[] {record}, new long[1]), allowed),
              jobLoader,
              channel -> null);

      // then
      assertThat(decoded.value(0).getClass()).isSameAs(legacy);
      assertThat(legacy.getMethod("id").invoke(decoded.value(0))).isEqualTo(7L);
    }
  }

  /** The exchange's own encoding, with Java serialization for no class of the job. */
  private static final RecordEncoding OWN = new RecordEncoding(null, Set.of(), "Readings");

  private static RecordEncoding declared(StateSerializer<?> serializer) {
    return new RecordEncoding(serializer, Set.of(), "Readings");
  }

  private Batch roundTrip(Batch batch) throws Exception {
    return BatchCodec.decode(
        BatchCodec.encode(batch, OWN), getClass().getClassLoader(), channel -> null);
  }
}
