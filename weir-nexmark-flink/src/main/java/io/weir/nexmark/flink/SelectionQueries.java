package io.weir.nexmark.flink;

import io.weir.nexmark.model.Auction;
import io.weir.nexmark.model.Bid;
import io.weir.nexmark.model.Event;
import io.weir.nexmark.model.Person;
import io.weir.nexmark.queries.Query10;
import io.weir.nexmark.queries.Query10.LoggedBid;
import io.weir.nexmark.queries.Query14.TimedBid;
import io.weir.nexmark.queries.Query2.AuctionPrice;
import io.weir.nexmark.queries.Query21;
import io.weir.nexmark.queries.Query21.ChannelBid;
import io.weir.nexmark.queries.Query22;
import io.weir.nexmark.queries.Query22.UrlDirectories;
import org.apache.flink.streaming.api.datastream.DataStream;

/**
 * The stateless queries: q0 (pass-through), q1 (a map), q2 (a filter), q10 (a map), q14 (a filter
 * and a map), q21 (a filter and a map) and q22 (a map), each as its Weir counterpart computes it;
 * q10, q21 and q22 with the Weir query's own row functions.
 */
final class SelectionQueries {
  /** Auctions whose id is a multiple of this are q2's, as in Weir's q2. */
  private static final long AUCTION_ID_MODULUS = 123;

  private static final long MIN_EUROS = 1_000_000;
  private static final long MAX_EUROS = 50_000_000;
  private static final long HOUR_MILLIS = 3_600_000;
  private static final long DAY_MILLIS = 24 * HOUR_MILLIS;

  private SelectionQueries() {}

  static DataStream<Bid> bids(DataStream<Event> events) {
    return events
        .filter(event -> event.bid() != null)
        .name("Bids")
        .map(Event::bid)
        .returns(Bid.class)
        .name("Bid");
  }

  static DataStream<Auction> auctions(DataStream<Event> events) {
    return events
        .filter(event -> event.auction() != null)
        .name("Auctions")
        .map(Event::auction)
        .returns(Auction.class)
        .name("Auction");
  }

  static DataStream<Person> persons(DataStream<Event> events) {
    return events
        .filter(event -> event.person() != null)
        .name("Persons")
        .map(Event::person)
        .returns(Person.class)
        .name("Person");
  }

  static DataStream<Bid> passThrough(DataStream<Event> events) {
    return bids(events);
  }

  static DataStream<Bid> euros(DataStream<Event> events) {
    return bids(events)
        .map(
            bid ->
                new Bid(
                    bid.auction(),
                    bid.bidder(),
                    euros(bid.price()),
                    bid.channel(),
                    bid.url(),
                    bid.dateTime(),
                    bid.extra()))
        .returns(Bid.class)
        .name("Euros");
  }

  static DataStream<AuctionPrice> selectedAuctions(DataStream<Event> events) {
    return bids(events)
        .filter(bid -> bid.auction() % AUCTION_ID_MODULUS == 0)
        .name("Selected auctions")
        .map(bid -> new AuctionPrice(bid.auction(), bid.price()))
        .returns(AuctionPrice.class)
        .name("Auction and price");
  }

  static DataStream<TimedBid> timedBids(DataStream<Event> events) {
    return bids(events)
        .filter(
            bid -> {
              long euros = euros(bid.price());
              return euros > MIN_EUROS && euros < MAX_EUROS;
            })
        .name("Price range")
        .map(SelectionQueries::timed)
        .returns(TimedBid.class)
        .name("Time of day");
  }

  static DataStream<LoggedBid> loggedBids(DataStream<Event> events) {
    return bids(events).map(Query10::logged).returns(LoggedBid.class).name("Bid with partition");
  }

  static DataStream<ChannelBid> channelIds(DataStream<Event> events) {
    return bids(events)
        .filter(bid -> Query21.channelId(bid) != null)
        .name("Has a channel id")
        .map(Query21::withChannelId)
        .returns(ChannelBid.class)
        .name("Channel id");
  }

  static DataStream<UrlDirectories> urlDirectories(DataStream<Event> events) {
    return bids(events)
        .map(Query22::directories)
        .returns(UrlDirectories.class)
        .name("URL directories");
  }

  private static TimedBid timed(Bid bid) {
    long hour = Math.floorMod(bid.dateTime(), DAY_MILLIS) / HOUR_MILLIS;
    String type =
        hour >= 8 && hour <= 18 ? "dayTime" : hour <= 6 || hour >= 20 ? "nightTime" : "otherTime";
    long cs = bid.extra().chars().filter(c -> c == 'c').count();
    return new TimedBid(
        bid.auction(), bid.bidder(), euros(bid.price()), type, bid.dateTime(), bid.extra(), cs);
  }

  /** Dollars to euros at the model's rate, in whole cents rounded down, as Weir's queries do. */
  private static long euros(long dollars) {
    return dollars * 908 / 1000;
  }
}
