package io.weir.nexmark.queries;

import io.weir.api.datastream.DataStream;
import io.weir.nexmark.model.Bid;
import io.weir.nexmark.model.Event;

/**
 * q14: bids between 10,000 and 500,000 euros, with the time of day they were placed (UTC hours:
 * 8-18 day, 20-6 night, else other) and how many {@code c} their extra field holds.
 */
public final class Query14 implements NexmarkQuery<Query14.TimedBid> {
  private static final long MIN_EUROS = 1_000_000;
  private static final long MAX_EUROS = 50_000_000;
  private static final long HOUR_MILLIS = 3_600_000;
  private static final long DAY_MILLIS = 24 * HOUR_MILLIS;

  public record TimedBid(
      long auction,
      long bidder,
      long price,
      String bidTimeType,
      long dateTime,
      String extra,
      long cCounts) {}

  @Override
  public String name() {
    return "q14";
  }

  @Override
  public String description() {
    return "filter and map: bids of 10,000 to 500,000 euros, with time of day and a count of 'c'";
  }

  @Override
  public DataStream<TimedBid> apply(DataStream<Event> events) {
    return EventStreams.bids(events)
        .filter(
            bid -> {
              long euros = EventStreams.euros(bid.price());
              return euros > MIN_EUROS && euros < MAX_EUROS;
            })
        .name("Price range")
        .map(Query14::timed)
        .name("Time of day");
  }

  private static TimedBid timed(Bid bid) {
    long hour = Math.floorMod(bid.dateTime(), DAY_MILLIS) / HOUR_MILLIS;
    String type =
        hour >= 8 && hour <= 18 ? "dayTime" : hour <= 6 || hour >= 20 ? "nightTime" : "otherTime";
    long cs = bid.extra().chars().filter(c -> c == 'c').count();
    return new TimedBid(
        bid.auction(),
        bid.bidder(),
        EventStreams.euros(bid.price()),
        type,
        bid.dateTime(),
        bid.extra(),
        cs);
  }

  @Override
  public String sql() {
    String euros = EventStreams.eurosSql("price");
    String hour = "((dateTime % " + DAY_MILLIS + ") // " + HOUR_MILLIS + ")";
    return "SELECT auction, bidder, "
        + euros
        + " AS price, CASE WHEN "
        + hour
        + " BETWEEN 8 AND 18 THEN 'dayTime' WHEN "
        + hour
        + " <= 6 OR "
        + hour
        + " >= 20 THEN 'nightTime' ELSE 'otherTime' END AS bidTimeType, dateTime, extra,"
        + " length(extra) - length(replace(extra, 'c', '')) AS cCounts FROM bid WHERE "
        + euros
        + " > "
        + MIN_EUROS
        + " AND "
        + euros
        + " < "
        + MAX_EUROS;
  }
}
