package io.weir.api.types;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.weir.api.state.StateSerializer;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.ObjectOutputStream;
import java.io.Serializable;
import java.util.List;
import java.util.Map;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import org.junit.jupiter.api.Test;

class TypeSerializerEvolutionTest {
  record CountV1(String word, long count) {}

  record CountWithFieldsAdded(String word, long count, String source, int weight, boolean seen) {}

  record CountWithWordRemoved(long count) {}

  record CountWithTypeChanged(String word, String count) {}

  record Place(String city) {}

  record PlaceWithZip(String city, int zip) {}

  record Visit(Place place, List<Place> earlier) {}

  record VisitWithZips(PlaceWithZip place, List<PlaceWithZip> earlier) {}

  record Tally(Map<String, Integer> byWord) {}

  record TallyWithLongs(Map<String, Long> byWord) {}

  /** Not a POJO: no public no-argument constructor. */
  public static final class Money implements Serializable {
    private final long cents;

    public Money(long cents) {
      this.cents = cents;
    }

    long cents() {
      return cents;
    }
  }

  record Payment(String payer, Money money) {}

  @Test
  void when_aFieldIsAdded_then_oldBytesReadWithItsDefault() {
    byte[] written = TypeSerializer.of(CountV1.class).serialize(new CountV1("weir", 41));
    byte[] schema = TypeSerializer.of(CountV1.class).schema();

    CountWithFieldsAdded read =
        TypeSerializer.of(CountWithFieldsAdded.class).readerOf(schema).deserialize(written);

    assertThat(read).isEqualTo(new CountWithFieldsAdded("weir", 41, null, 0, false));
  }

  @Property
  void when_anyOldValueIsReadAsTheNewType_then_keptFieldsAreEqualAndAddedOnesDefault(
      @ForAll String word, @ForAll long count) {
    TypeSerializer<CountV1> v1 = TypeSerializer.of(CountV1.class);
    StateSerializer<CountWithFieldsAdded> reader =
        TypeSerializer.of(CountWithFieldsAdded.class).readerOf(v1.schema());

    CountWithFieldsAdded read = reader.deserialize(v1.serialize(new CountV1(word, count)));

    assertThat(read).isEqualTo(new CountWithFieldsAdded(word, count, null, 0, false));
  }

  @Property
  void when_anyOldValueLosesAField_then_theRestReadsBackEqual(
      @ForAll String word, @ForAll long count) {
    TypeSerializer<CountV1> v1 = TypeSerializer.of(CountV1.class);

    CountWithWordRemoved read =
        TypeSerializer.of(CountWithWordRemoved.class)
            .readerOf(v1.schema())
            .deserialize(v1.serialize(new CountV1(word, count)));

    assertThat(read).isEqualTo(new CountWithWordRemoved(count));
  }

  @Test
  void when_aFieldIsRemoved_then_itIsSkipped() {
    byte[] written = TypeSerializer.of(CountV1.class).serialize(new CountV1("weir", 41));
    byte[] schema = TypeSerializer.of(CountV1.class).schema();

    CountWithWordRemoved read =
        TypeSerializer.of(CountWithWordRemoved.class).readerOf(schema).deserialize(written);

    assertThat(read).isEqualTo(new CountWithWordRemoved(41));
  }

  @Test
  void when_aNestedRecordGainsAField_then_everyNestedValueGetsTheDefault() {
    TypeSerializer<Visit> v1 = TypeSerializer.of(Visit.class);
    byte[] written =
        v1.serialize(new Visit(new Place("Lyon"), List.of(new Place("Oslo"), new Place("Kyiv"))));

    VisitWithZips read =
        TypeSerializer.of(VisitWithZips.class).readerOf(v1.schema()).deserialize(written);

    assertThat(read)
        .isEqualTo(
            new VisitWithZips(
                new PlaceWithZip("Lyon", 0),
                List.of(new PlaceWithZip("Oslo", 0), new PlaceWithZip("Kyiv", 0))));
  }

  @Test
  void when_aFieldChangesType_then_theReaderNamesTheFieldAndBothTypes() {
    byte[] schema = TypeSerializer.of(CountV1.class).schema();

    assertThatThrownBy(() -> TypeSerializer.of(CountWithTypeChanged.class).readerOf(schema))
        .isInstanceOf(TypeChangedException.class)
        .hasMessage("field 'count' changed type from long to String")
        .extracting(e -> ((TypeChangedException) e).field())
        .isEqualTo("count");
  }

  @Test
  void when_aMapValueChangesType_then_theReaderNamesTheField() {
    byte[] schema = TypeSerializer.of(Tally.class).schema();

    assertThatThrownBy(() -> TypeSerializer.of(TallyWithLongs.class).readerOf(schema))
        .isInstanceOf(TypeChangedException.class)
        .hasMessage("field 'byWord{value}' changed type from int to long");
  }

  @Test
  void when_aFieldHasNoSerializer_then_buildingFailsInOneLineNamingTypeAndField() {
    assertThatThrownBy(() -> TypeSerializer.of(Payment.class))
        .isInstanceOf(UnsupportedTypeException.class)
        .hasMessageStartingWith(
            "type "
                + Payment.class.getName()
                + ": field 'money' of type "
                + Money.class.getName()
                + " has no serializer:")
        .hasMessageNotContaining("\n");
  }

  @Test
  void when_aTypeIsNamedForJavaSerialization_then_itRoundTripsInsideARecord() {
    TypeSerializer<Payment> payments = TypeSerializer.of(Payment.class, Money.class);

    Payment read = payments.deserialize(payments.serialize(new Payment("ada", new Money(250))));

    assertThat(read.payer()).isEqualTo("ada");
    assertThat(read.money().cents()).isEqualTo(250);
  }

  @Test
  void when_aRecordIsSerialized_then_itTakesAFractionOfJavaSerializationsBytes()
      throws IOException {
    record Click(long userId, String page, int durationSeconds) implements Serializable {}
    Click click = new Click(1234567, "/orders/42", 17);

    int typed = TypeSerializer.of(Click.class).serialize(click).length;

    assertThat(typed).isLessThan(javaSerializedSize(click) / 5);
  }

  private static int javaSerializedSize(Object value) throws IOException {
    ByteArrayOutputStream bytes = new ByteArrayOutputStream();
    try (ObjectOutputStream out = new ObjectOutputStream(bytes)) {
      out.writeObject(value);
    }
    return bytes.size();
  }
}
