package io.weir.nexmark.queries;

import io.weir.api.datastream.DataStream;
import io.weir.api.functions.AggregateFunction;
import io.weir.api.windowing.TumblingEventTimeWindows;
import io.weir.nexmark.model.Bid;
import io.weir.nexmark.model.Event;

/**
 * q15: a report of each UTC day's bidding: bids, distinct bidders and distinct auctions, overall
 * and in three price ranges. One one-day window over all bids; the aggregate carries the day.
 */
public final class Query15 implements NexmarkQuery<Query15.DailyBidding> {
  public record DailyBidding(
      String day,
      long totalBids,
      long rank1Bids,
      long rank2Bids,
      long rank3Bids,
      long totalBidders,
      long rank1Bidders,
      long rank2Bidders,
      long rank3Bidders,
      long totalAuctions,
      long rank1Auctions,
      long rank2Auctions,
      long rank3Auctions) {}

  @Override
  public String name() {
    return "q15";
  }

  @Override
  public String description() {
    return "bidding report: per day, bids, bidders and auctions overall and by price range";
  }

  @Override
  public DataStream<DailyBidding> apply(DataStream<Event> events) {
    // One report over all bids: a constant key puts them in one keyed window.
    return EventStreams.bids(events)
        .keyBy(bid -> 0)
        .window(TumblingEventTimeWindows.of(BidCounts.DAY))
        .aggregate(new Report())
        .name("Daily bidding");
  }

  @Override
  public String sql() {
    return "SELECT strftime(epoch_ms(dateTime), '%Y-%m-%d') AS day, "
        + BidCounts.countsSql()
        + " FROM bid GROUP BY day";
  }

  static final class Report implements AggregateFunction<Bid, BidCounts, DailyBidding> {
    @Override
    public BidCounts createAccumulator() {
      return new BidCounts();
    }

    @Override
    public BidCounts add(Bid bid, BidCounts counts) {
      counts.add(bid);
      return counts;
    }

    @Override
    public DailyBidding getResult(BidCounts counts) {
      return counts.dailyBidding();
    }

    @Override
    public BidCounts merge(BidCounts a, BidCounts b) {
      a.addAll(b);
      return a;
    }
  }
}
