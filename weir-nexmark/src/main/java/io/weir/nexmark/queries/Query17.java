package io.weir.nexmark.queries;

import io.weir.api.datastream.DataStream;
import io.weir.api.functions.AggregateFunction;
import io.weir.api.windowing.TumblingEventTimeWindows;
import io.weir.nexmark.model.Bid;
import io.weir.nexmark.model.Event;
import java.io.Serializable;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;

/**
 * q17: each auction's bids of each day (UTC): how many, how many in each of three price ranges, and
 * the lowest, highest, mean (rounded down) and total price. The day is a tumbling window; the
 * aggregate carries it, taken from its bids' event time.
 */
public final class Query17 implements NexmarkQuery<Query17.AuctionDay> {
  private static final Duration DAY = Duration.ofDays(1);
  private static final long LOW_PRICE = 10_000;
  private static final long HIGH_PRICE = 1_000_000;

  public record AuctionDay(
      long auction,
      String day,
      long totalBids,
      long rank1Bids,
      long rank2Bids,
      long rank3Bids,
      long minPrice,
      long maxPrice,
      long avgPrice,
      long sumPrice) {}

  @Override
  public String name() {
    return "q17";
  }

  @Override
  public String description() {
    return "auction statistics: per auction and day, bid counts by price range and price figures";
  }

  @Override
  public DataStream<AuctionDay> apply(DataStream<Event> events) {
    return EventStreams.bids(events)
        .keyBy(Bid::auction)
        .window(TumblingEventTimeWindows.of(DAY))
        .aggregate(new DailyStatistics())
        .name("Auction day");
  }

  @Override
  public String sql() {
    return "SELECT auction, strftime(epoch_ms(dateTime), '%Y-%m-%d') AS day,"
        + " count(*) AS totalBids,"
        + " count(*) FILTER (WHERE price < "
        + LOW_PRICE
        + ") AS rank1Bids,"
        + " count(*) FILTER (WHERE price >= "
        + LOW_PRICE
        + " AND price < "
        + HIGH_PRICE
        + ") AS rank2Bids,"
        + " count(*) FILTER (WHERE price >= "
        + HIGH_PRICE
        + ") AS rank3Bids,"
        + " min(price) AS minPrice, max(price) AS maxPrice,"
        + " sum(price) // count(*) AS avgPrice, sum(price) AS sumPrice"
        + " FROM bid GROUP BY auction, day";
  }

  /** One auction's figures for one day. */
  static final class DailyStatistics
      implements AggregateFunction<Bid, DailyStatistics.Accumulator, AuctionDay> {
    /**
     * A POJO, so that state kept serialized (RocksDB) writes it field by field, as Flink's version
     * of the query does; it stays {@link Serializable} for the heap's checkpoints.
     */
    public static final class Accumulator implements Serializable {
      public long auction;
      public long dayStart;
      public long total;
      public long low;
      public long middle;
      public long high;
      public long min = Long.MAX_VALUE;
      public long max = Long.MIN_VALUE;
      public long sum;
    }

    @Override
    public Accumulator createAccumulator() {
      return new Accumulator();
    }

    @Override
    public Accumulator add(Bid bid, Accumulator day) {
      // Every bid of the window has the same auction and day.
      day.auction = bid.auction();
      day.dayStart = Math.floorDiv(bid.dateTime(), DAY.toMillis()) * DAY.toMillis();
      day.total++;
      if (bid.price() < LOW_PRICE) {
        day.low++;
      } else if (bid.price() < HIGH_PRICE) {
        day.middle++;
      } else {
        day.high++;
      }
      day.min = Math.min(day.min, bid.price());
      day.max = Math.max(day.max, bid.price());
      day.sum += bid.price();
      return day;
    }

    @Override
    public AuctionDay getResult(Accumulator day) {
      String date =
          Instant.ofEpochMilli(day.dayStart).atOffset(ZoneOffset.UTC).toLocalDate().toString();
      return new AuctionDay(
          day.auction,
          date,
          day.total,
          day.low,
          day.middle,
          day.high,
          day.min,
          day.max,
          day.sum / day.total,
          day.sum);
    }

    @Override
    public Accumulator merge(Accumulator a, Accumulator b) {
      if (b.total == 0) {
        return a;
      }
      if (a.total == 0) {
        return b;
      }
      a.total += b.total;
      a.low += b.low;
      a.middle += b.middle;
      a.high += b.high;
      a.min = Math.min(a.min, b.min);
      a.max = Math.max(a.max, b.max);
      a.sum += b.sum;
      return a;
    }
  }
}
