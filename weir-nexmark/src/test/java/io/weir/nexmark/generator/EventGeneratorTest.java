package io.weir.nexmark.generator;

import static org.assertj.core.api.Assertions.assertThat;

import io.weir.nexmark.model.Bid;
import io.weir.nexmark.model.Event;
import io.weir.nexmark.model.EventType;
import io.weir.nexmark.model.NexmarkJson;
import java.util.EnumMap;
import java.util.HashMap;
import java.util.HashSet;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.Test;

class EventGeneratorTest {
  private static final int EVENTS = 50_000;
  private final GeneratorConfig config = GeneratorConfig.defaults();
  private final EventGenerator generator = new EventGenerator(config);

  @Test
  void when_theSamePositionIsGeneratedTwice_then_theEventIsTheSame() {
    EventGenerator other = new EventGenerator(GeneratorConfig.defaults());
    for (long position = 0; position < 2_000; position++) {
      assertThat(other.generate(position)).isEqualTo(generator.generate(position));
    }
  }

  @Test
  void when_theSeedChanges_then_theEventsChangeButNotTheirKindOrTime() {
    EventGenerator reseeded = new EventGenerator(config.withSeed(42));
    int different = 0;
    for (long position = 0; position < 1_000; position++) {
      Event event = generator.generate(position);
      Event other = reseeded.generate(position);
      assertThat(other.type()).isEqualTo(event.type());
      assertThat(other.timestamp()).isEqualTo(event.timestamp());
      different += other.equals(event) ? 0 : 1;
    }
    assertThat(different).isEqualTo(1_000);
  }

  @Test
  void when_manyEventsAreGenerated_then_personsAuctionsAndBidsAreOneToThreeToFortySix() {
    Map<EventType, Integer> counts = new EnumMap<>(EventType.class);
    for (long position = 0; position < EVENTS; position++) {
      counts.merge(generator.generate(position).type(), 1, Integer::sum);
    }
    assertThat(counts)
        .containsEntry(EventType.PERSON, EVENTS / 50)
        .containsEntry(EventType.AUCTION, EVENTS / 50 * 3)
        .containsEntry(EventType.BID, EVENTS / 50 * 46);
  }

  @Test
  void when_eventsAreOutOfOrder_then_noneIsBehindTheLatestByMoreThanTheBound() {
    long bound = config.maxOutOfOrderness().toMillis();
    long latest = generator.generate(0).timestamp();
    int behind = 0;
    for (long position = 1; position < EVENTS; position++) {
      long timestamp = generator.generate(position).timestamp();
      assertThat(timestamp).isGreaterThan(latest - bound);
      behind += timestamp < latest ? 1 : 0;
      latest = Math.max(latest, timestamp);
    }
    assertThat(behind).as("events behind the latest one").isPositive();
    long last = generator.generate(EVENTS - 1).timestamp();
    assertThat(latest - config.baseTime().toEpochMilli())
        .as("event time advances at the configured rate")
        .isBetween(EVENTS * 1000L / config.eventsPerSecond() - bound, last + bound);
  }

  @Test
  void when_personsAndAuctionsAreCreated_then_eachHasANewIdFromTheFirstOnes() {
    Set<Long> persons = new HashSet<>();
    Set<Long> auctions = new HashSet<>();
    for (long position = 0; position < EVENTS; position++) {
      Event event = generator.generate(position);
      if (event.person() != null) {
        assertThat(persons.add(event.person().id())).isTrue();
      } else if (event.auction() != null) {
        assertThat(auctions.add(event.auction().id())).isTrue();
      }
    }
    assertThat(persons).hasSize(EVENTS / 50).allMatch(id -> id >= 1000 && id < 1000 + EVENTS / 50);
    assertThat(auctions)
        .hasSize(EVENTS / 50 * 3)
        .allMatch(id -> id >= 1000 && id < 1000 + EVENTS / 50 * 3);
  }

  @Test
  void when_bidsAreCounted_then_halfGoToHotAuctionsAndMostComeFromHotBidders() {
    Map<Long, Integer> bidsPerAuction = new HashMap<>();
    int bids = 0;
    int fromHotBidders = 0;
    int onHotChannels = 0;
    for (long position = 0; position < EVENTS; position++) {
      Bid bid = generator.generate(position).bid();
      if (bid != null) {
        bids++;
        bidsPerAuction.merge(bid.auction(), 1, Integer::sum);
        fromHotBidders += (bid.bidder() - 1000) % 100 == 1 ? 1 : 0;
        onHotChannels += bid.channel().startsWith("channel-") ? 0 : 1;
      }
    }
    long onHotAuctions =
        bidsPerAuction.entrySet().stream()
            .filter(entry -> (entry.getKey() - 1000) % 100 == 0)
            .mapToLong(Map.Entry::getValue)
            .sum();
    assertThat((double) onHotAuctions / bids).isBetween(0.48, 0.55);
    assertThat((double) fromHotBidders / bids).isBetween(0.73, 0.78);
    assertThat((double) onHotChannels / bids).isBetween(0.47, 0.53);
  }

  @Test
  void when_anEventIsWrittenAsJson_then_readingItBackGivesTheSameEvent() throws Exception {
    for (long position = 0; position < 200; position++) {
      Event event = generator.generate(position);
      assertThat(NexmarkJson.event(NexmarkJson.bytes(event))).isEqualTo(event);
    }
  }
}
