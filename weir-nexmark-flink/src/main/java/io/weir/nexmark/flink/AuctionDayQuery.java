package io.weir.nexmark.flink;

import io.weir.nexmark.model.Bid;
import io.weir.nexmark.model.Event;
import io.weir.nexmark.queries.Query17.AuctionDay;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import org.apache.flink.api.common.functions.AggregateFunction;
import org.apache.flink.api.common.typeinfo.Types;
import org.apache.flink.streaming.api.datastream.DataStream;
import org.apache.flink.streaming.api.windowing.assigners.TumblingEventTimeWindows;

/**
 * q17: each auction's bids of each UTC day, counted by price range, with the lowest, highest, mean
 * (rounded down) and total price, as Weir's q17 computes them.
 */
final class AuctionDayQuery {
  private static final Duration DAY = Duration.ofDays(1);
  private static final long LOW_PRICE = 10_000;
  private static final long HIGH_PRICE = 1_000_000;

  private AuctionDayQuery() {}

  static DataStream<AuctionDay> apply(DataStream<Event> events) {
    return SelectionQueries.bids(events)
        .keyBy(Bid::auction, Types.LONG)
        .window(TumblingEventTimeWindows.of(DAY))
        .aggregate(new DailyStatistics())
        .returns(AuctionDay.class)
        .name("Auction day");
  }

  /** One auction's figures for one day; a POJO, so that Flink serializes it field by field. */
  public static final class Accumulator {
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

  static final class DailyStatistics implements AggregateFunction<Bid, Accumulator, AuctionDay> {
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
