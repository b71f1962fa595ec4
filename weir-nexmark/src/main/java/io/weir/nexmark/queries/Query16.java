package io.weir.nexmark.queries;

import io.weir.api.datastream.DataStream;
import io.weir.api.functions.AggregateFunction;
import io.weir.api.windowing.TumblingEventTimeWindows;
import io.weir.nexmark.model.Bid;
import io.weir.nexmark.model.Event;
import java.io.Serializable;

/**
 * q16: q15's report per channel and UTC day, with the day's last minute of bidding on the channel
 * ({@code HH:mm}). A one-day window per channel; the aggregate carries channel and day.
 */
public final class Query16 implements NexmarkQuery<Query16.ChannelBidding> {
  public record ChannelBidding(
      String channel,
      String day,
      String minute,
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
    return "q16";
  }

  @Override
  public String description() {
    return "channel report: q15 per channel and day, with the day's last minute of bidding";
  }

  @Override
  public DataStream<ChannelBidding> apply(DataStream<Event> events) {
    return EventStreams.bids(events)
        .keyBy(Bid::channel)
        .window(TumblingEventTimeWindows.of(BidCounts.DAY))
        .aggregate(new Report())
        .name("Daily channel bidding");
  }

  @Override
  public String sql() {
    return "SELECT channel, strftime(epoch_ms(dateTime), '%Y-%m-%d') AS day,"
        + " max(strftime(epoch_ms(dateTime), '%H:%M')) AS minute, "
        + BidCounts.countsSql()
        + " FROM bid GROUP BY channel, day";
  }

  /**
   * The day's counts and the channel they are of; a POJO, as {@link BidCounts} is, for the same
   * reason.
   */
  public static final class ChannelCounts implements Serializable {
    public String channel;
    public BidCounts counts = new BidCounts();
  }

  static final class Report implements AggregateFunction<Bid, ChannelCounts, ChannelBidding> {
    @Override
    public ChannelCounts createAccumulator() {
      return new ChannelCounts();
    }

    @Override
    public ChannelCounts add(Bid bid, ChannelCounts channel) {
      channel.channel = bid.channel();
      channel.counts.add(bid);
      return channel;
    }

    @Override
    public ChannelBidding getResult(ChannelCounts channel) {
      return channel.counts.channelBidding(channel.channel);
    }

    @Override
    public ChannelCounts merge(ChannelCounts a, ChannelCounts b) {
      if (a.channel == null) {
        a.channel = b.channel;
      }
      a.counts.addAll(b.counts);
      return a;
    }
  }
}
