package io.weir.nexmark.model;

import static java.nio.charset.StandardCharsets.UTF_8;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.annotation.JsonProperty;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.weir.nexmark.generator.EventGenerator;
import io.weir.nexmark.generator.GeneratorConfig;
import io.weir.nexmark.queries.Query21;
import io.weir.nexmark.queries.Query22;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Callable;
import org.junit.jupiter.api.Test;

/**
 * The JSON codec's own readers and writers against Jackson's, byte for byte and value for value.
 */
class NexmarkJsonTest {
  private static final ObjectMapper JACKSON = new ObjectMapper();
  private final EventGenerator generator = new EventGenerator(GeneratorConfig.defaults());

  public record Flags(int count, boolean open, boolean closed, String note) {}

  public record Renamed(@JsonProperty("other") long value) {}

  public record WithGetter(long value) {
    public long getDoubled() {
      return value * 2;
    }
  }

  public record Nested(long id, Bid bid) {}

  public record Empty() {}

  @Test
  void when_generatedEventsAreRead_then_eachIsReadWithoutJacksonAsJacksonReadsIt()
      throws Exception {
    // given: the generator's events of every kind, as it writes them
    int read = 0;
    for (long position = 0; position < 5_000; position++) {
      byte[] json = NexmarkJson.bytes(generator.generate(position));
      // when
      Event event = read(json);
      // then
      assertThat(event).isEqualTo(JACKSON.readValue(json, Event.class));
      read++;
    }
    assertThat(read).isEqualTo(5_000);
  }

  @Test
  void when_fieldsAreReorderedAndSpaced_then_theEventIsReadWithoutJacksonAsJacksonReadsIt()
      throws Exception {
    byte[] json =
        (" { \"bid\" : {\"extra\":\"x\", \"auction\":1,\"bidder\":-2,\"price\":3,\n"
                + "\"channel\":\"c\",\"url\":\"u\",\"dateTime\":-0} } ")
            .getBytes(UTF_8);
    assertThat(read(json)).isEqualTo(JACKSON.readValue(json, Event.class));
  }

  @Test
  void when_stringsHoldEscapesAndOtherCharacters_then_theEventIsReadWithoutTheBinderAsItReadsIt()
      throws Exception {
    byte[] json =
        ("{\"bid\":{\"auction\":1,\"bidder\":2,\"price\":3,\"channel\":\"a\\\"b\\u00e9\","
                + "\"url\":\"\u00fc/\\n\",\"dateTime\":4,\"extra\":\"\"}}")
            .getBytes(UTF_8);
    Event event = read(json);
    assertThat(event).isEqualTo(JACKSON.readValue(json, Event.class));
    assertThat(event.bid().channel()).isEqualTo("a\"b\u00e9");
    assertThat(event.bid().url()).isEqualTo("\u00fc/\n");
  }

  @Test
  void when_eventIsNotOfTheGeneratorsForm_then_itIsReadAsJacksonReadsIt() {
    List<String> inputs =
        List.of(
            "{\"bid\":{\"auction\":1,\"bidder\":2,\"price\":3.0,\"channel\":null,"
                + "\"url\":\"u\",\"dateTime\":4,\"extra\":\"e\"}}",
            "{\"bid\":{\"auction\":1,\"bidder\":2,\"price\":3,\"channel\":\"c\",\"url\":\"u\"}}",
            "{\"bid\":{\"auction\":1,\"auction\":7,\"bidder\":2,\"price\":3,\"channel\":\"c\","
                + "\"url\":\"u\",\"dateTime\":4,\"extra\":\"e\"}}",
            "{\"bid\":{\"auction\":12345678901234567890,\"bidder\":2,\"price\":3,"
                + "\"channel\":\"c\",\"url\":\"u\",\"dateTime\":4,\"extra\":\"e\"}}");
    for (String input : inputs) {
      byte[] json = input.getBytes(UTF_8);
      assertThat(read(json)).as(input).isNull();
      assertSameOutcome(json);
    }
  }

  @Test
  void when_eventIsInvalid_then_itIsRejectedAsJacksonRejectsIt() {
    List<String> inputs =
        List.of(
            "{\"bid\":{\"auction\":1,\"bidder\":2,\"price\":3,\"channel\":\"c\",\"url\":\"u\","
                + "\"dateTime\":4,\"extra\":\"e\",\"colour\":\"red\"}}",
            "{\"bid\":{\"auction\":01,\"bidder\":2,\"price\":3,\"channel\":\"c\",\"url\":\"u\","
                + "\"dateTime\":4,\"extra\":\"e\"}}",
            "{\"bid\":{\"auction\":1,\"bidder\":2,\"price\":3,\"channel\":\"c\",\"url\":\"u\","
                + "\"dateTime\":4,\"extra\":\"e\"}",
            "{\"ask\":{}}",
            "{}");
    for (String input : inputs) {
      byte[] json = input.getBytes(UTF_8);
      assertThat(read(json)).as(input).isNull();
      assertThatThrownBy(() -> JACKSON.readValue(json, Event.class)).as(input).isNotNull();
      assertThatThrownBy(() -> NexmarkJson.event(json)).as(input).isNotNull();
    }
  }

  @Test
  void when_queryRowsAreWritten_then_theBytesAreJacksons() throws Exception {
    // given: the rows of the queries that pass bids on, from the generator's bids
    List<Object> rows = new ArrayList<>();
    for (long position = 0; position < 5_000; position++) {
      Bid bid = generator.generate(position).bid();
      if (bid != null) {
        rows.add(bid);
        rows.add(Query22.directories(bid));
        if (Query21.channelId(bid) != null) {
          rows.add(Query21.withChannelId(bid));
        }
      }
    }
    // when, then
    assertSameBytes(rows);
    assertThat(FlatRecordJsonWriter.of(Bid.class)).isNotNull();
    assertThat(FlatRecordJsonWriter.of(Query21.ChannelBid.class)).isNotNull();
    assertThat(FlatRecordJsonWriter.of(Query22.UrlDirectories.class)).isNotNull();
  }

  @Test
  void when_rowsHoldEdgeValues_then_theBytesAreJacksons() throws Exception {
    assertSameBytes(
        List.of(
            new Bid(Long.MIN_VALUE, Long.MAX_VALUE, -1, null, "", 0, "a\"b"),
            new Bid(-9, 10, 100, "tab\there", "caf\u00e9", 99, "back\\slash"),
            new Bid(1, 2, 3, "\u0000\u001f\u007f", "\ud83d\ude00", 4, "/<>&'"),
            new Bid(
                999_999_999_999_999_999L,
                1_000_000_000_000_000_000L,
                Long.MIN_VALUE + 1,
                "",
                "",
                1_000_000_000L,
                ""),
            new Bid(9, -10, 99, "", "", -100, ""),
            new Flags(Integer.MIN_VALUE, true, false, null),
            new Flags(Integer.MAX_VALUE, false, true, "n"),
            new Renamed(5),
            new WithGetter(6),
            new Nested(7, new Bid(1, 2, 3, "c", "u", 4, "e"))));
    assertThat(FlatRecordJsonWriter.of(Flags.class)).isNotNull();
    assertThat(FlatRecordJsonWriter.of(Renamed.class)).isNull();
    assertThat(FlatRecordJsonWriter.of(WithGetter.class)).isNull();
    assertThat(FlatRecordJsonWriter.of(Nested.class)).isNull();
    assertThat(FlatRecordJsonWriter.of(Event.class)).isNull();
    assertThat(FlatRecordJsonWriter.of(Empty.class)).isNull();
  }

  @Test
  void when_numbersCrossEachPowerOfTen_then_theBytesAreJacksons() throws Exception {
    List<Object> rows = new ArrayList<>();
    long power = 1;
    for (int exponent = 0; exponent <= 18; exponent++, power *= 10) {
      rows.add(new Bid(power - 1, power, power + 1, "", "", -power, ""));
      rows.add(new Bid(-(power - 1), -(power + 1), 0, "", "", 0, ""));
      rows.add(new Flags((int) Math.min(power, Integer.MAX_VALUE), true, true, ""));
    }
    assertSameBytes(rows);
    assertThat(rows).hasSize(57);
  }

  private static Event read(byte[] json) {
    return EventJsonReader.read(JACKSON.getFactory(), json);
  }

  private static void assertSameBytes(List<?> rows) throws Exception {
    for (Object row : rows) {
      assertThat(new String(NexmarkJson.bytes(row), UTF_8))
          .as(row.toString())
          .isEqualTo(new String(JACKSON.writeValueAsBytes(row), UTF_8));
    }
  }

  /** The same event, or a failure of the same class, as Jackson's. */
  private static void assertSameOutcome(byte[] json) {
    assertThat(outcome(() -> NexmarkJson.event(json)))
        .isEqualTo(outcome(() -> JACKSON.readValue(json, Event.class)));
  }

  private static Object outcome(Callable<Event> read) {
    try {
      return read.call();
    } catch (Exception e) {
      return e.getClass();
    }
  }
}
