package io.weir.nexmark.model;

import com.fasterxml.jackson.annotation.JsonInclude;
import java.io.Serializable;

/**
 * One event of the Nexmark stream: exactly one of person, auction and bid is set. In JSON only that
 * one appears, e.g. {@code {"bid":{"auction":1000,...}}}.
 */
@JsonInclude(JsonInclude.Include.NON_NULL)
public record Event(Person person, Auction auction, Bid bid) implements Serializable {
  public Event {
    int set = (person != null ? 1 : 0) + (auction != null ? 1 : 0) + (bid != null ? 1 : 0);
    if (set != 1) {
      throw new IllegalArgumentException(
          "A Nexmark event holds exactly one person, auction or bid, not " + set);
    }
  }

  public static Event of(Person person) {
    return new Event(person, null, null);
  }

  public static Event of(Auction auction) {
    return new Event(null, auction, null);
  }

  public static Event of(Bid bid) {
    return new Event(null, null, bid);
  }

  public EventType type() {
    return person != null ? EventType.PERSON : auction != null ? EventType.AUCTION : EventType.BID;
  }

  /** The event time in epoch millis. */
  public long timestamp() {
    return switch (type()) {
      case PERSON -> person.dateTime();
      case AUCTION -> auction.dateTime();
      case BID -> bid.dateTime();
    };
  }
}
