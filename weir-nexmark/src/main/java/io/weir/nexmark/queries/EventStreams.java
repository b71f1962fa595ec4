package io.weir.nexmark.queries;

import io.weir.api.datastream.DataStream;
import io.weir.nexmark.model.Auction;
import io.weir.nexmark.model.Bid;
import io.weir.nexmark.model.Event;
import io.weir.nexmark.model.Person;

/** The parts of the event stream the queries start from. */
final class EventStreams {
  private EventStreams() {}

  static DataStream<Bid> bids(DataStream<Event> events) {
    return events.filter(event -> event.bid() != null).name("Bids").map(Event::bid).name("Bid");
  }

  static DataStream<Auction> auctions(DataStream<Event> events) {
    return events
        .filter(event -> event.auction() != null)
        .name("Auctions")
        .map(Event::auction)
        .name("Auction");
  }

  static DataStream<Person> persons(DataStream<Event> events) {
    return events
        .filter(event -> event.person() != null)
        .name("Persons")
        .map(Event::person)
        .name("Person");
  }

  /** Dollars to euros at the model's rate, in whole cents rounded down. */
  static long euros(long dollars) {
    return dollars * 908 / 1000;
  }

  /** The same conversion in SQL. */
  static String eurosSql(String dollars) {
    return "(" + dollars + " * 908 // 1000)";
  }
}
