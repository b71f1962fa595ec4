package io.weir.nexmark.generator;

import io.weir.api.source.GeneratorSource;
import io.weir.nexmark.model.Event;
import java.util.Random;

/**
 * The Nexmark stream: the event at any position, computed from the configuration and the position
 * alone, so parallel generators, a restarted one and the correctness check all see the same stream
 * without sharing anything.
 */
public final class EventGenerator implements GeneratorSource.Generator<Event> {
  private final GeneratorConfig config;

  public EventGenerator(GeneratorConfig config) {
    this.config = config;
  }

  public GeneratorConfig config() {
    return config;
  }

  /** The event at {@code position} (0-based) of the stream. */
  @Override
  public Event generate(long position) {
    long eventNumber = config.eventNumber(position);
    Random random = config.random(eventNumber);
    long timestamp = config.timestamp(eventNumber);
    if (EventIds.isPerson(eventNumber)) {
      return Event.of(PersonGenerator.person(eventNumber, random, timestamp));
    }
    if (EventIds.isAuction(eventNumber)) {
      return Event.of(AuctionGenerator.auction(eventNumber, random, timestamp, config));
    }
    return Event.of(BidGenerator.bid(eventNumber, random, timestamp));
  }
}
