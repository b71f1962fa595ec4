package io.weir.nexmark.flink;

import io.weir.nexmark.model.Bid;
import io.weir.nexmark.model.Event;
import io.weir.nexmark.queries.BidCounts;
import io.weir.nexmark.queries.Query15.DailyBidding;
import io.weir.nexmark.queries.Query16.ChannelBidding;
import org.apache.flink.api.common.functions.AggregateFunction;
import org.apache.flink.api.common.typeinfo.TypeInformation;
import org.apache.flink.api.common.typeinfo.Types;
import org.apache.flink.streaming.api.datastream.DataStream;
import org.apache.flink.streaming.api.functions.windowing.ProcessWindowFunction;
import org.apache.flink.streaming.api.windowing.assigners.TumblingEventTimeWindows;
import org.apache.flink.streaming.api.windowing.windows.TimeWindow;
import org.apache.flink.util.Collector;

/**
 * The daily bidding reports: q15 (one one-day window over all bids, under a constant key as in
 * Weir's q15) and q16 (one per channel), aggregated with Weir's own accumulator, {@link BidCounts}.
 */
final class BiddingReportQueries {
  private BiddingReportQueries() {}

  static DataStream<DailyBidding> dailyBidding(DataStream<Event> events) {
    return SelectionQueries.bids(events)
        .keyBy(bid -> 0, Types.INT)
        .window(TumblingEventTimeWindows.of(BidCounts.DAY))
        .aggregate(new CountBids(), counts(), counts())
        .name("Daily bidding")
        .map(BidCounts::dailyBidding)
        .returns(DailyBidding.class)
        .name("Report");
  }

  static DataStream<ChannelBidding> channelBidding(DataStream<Event> events) {
    return SelectionQueries.bids(events)
        .keyBy(Bid::channel, Types.STRING)
        .window(TumblingEventTimeWindows.of(BidCounts.DAY))
        .aggregate(
            new CountBids(),
            new OfChannel(),
            counts(),
            counts(),
            TypeInformation.of(ChannelBidding.class))
        .name("Daily channel bidding");
  }

  private static TypeInformation<BidCounts> counts() {
    return TypeInformation.of(BidCounts.class);
  }

  /** Labels a day's counts with their channel. */
  static final class OfChannel
      extends ProcessWindowFunction<BidCounts, ChannelBidding, String, TimeWindow> {
    @Override
    public void process(
        String channel,
        Context context,
        Iterable<BidCounts> counts,
        Collector<ChannelBidding> out) {
      for (BidCounts day : counts) {
        out.collect(day.channelBidding(channel));
      }
    }
  }

  static final class CountBids implements AggregateFunction<Bid, BidCounts, BidCounts> {
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
    public BidCounts getResult(BidCounts counts) {
      return counts;
    }

    @Override
    public BidCounts merge(BidCounts a, BidCounts b) {
      a.addAll(b);
      return a;
    }
  }
}
