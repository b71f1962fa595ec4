package io.weir.nexmark.queries;

import io.weir.api.datastream.DataStream;
import io.weir.api.functions.Collector;
import io.weir.api.functions.KeyedProcessFunction;
import io.weir.api.state.ValueState;
import io.weir.api.state.ValueStateDescriptor;
import io.weir.nexmark.model.Bid;
import io.weir.nexmark.model.Event;
import java.io.Serializable;

/**
 * q18: find last bid, each bidder's last bid on each auction (deduplication by {@code ROW_NUMBER}),
 * the first in {@link BidOrder#LATEST_FIRST}: the latest, and of bids at the same time the one with
 * the highest price.
 *
 * <p>Flink's suite answers with an updating result that retracts a bid when a later one comes. Weir
 * writes append-only results exactly once, so each key's last bid comes out once, when event time
 * ends: at the end of a bounded input (an unbounded one would never answer).
 */
public final class Query18 implements NexmarkQuery<Query18.LastBid> {
  public record LastBid(
      long auction, long bidder, long price, String channel, long dateTime, String extra) {}

  /** The key: one bidder on one auction. */
  record BidderOnAuction(long bidder, long auction) implements Serializable {}

  @Override
  public String name() {
    return "q18";
  }

  @Override
  public String description() {
    return "find last bid: each bidder's last bid on each auction";
  }

  @Override
  public DataStream<LastBid> apply(DataStream<Event> events) {
    return EventStreams.bids(events)
        .keyBy(bid -> new BidderOnAuction(bid.bidder(), bid.auction()))
        .process(new LastOfKey())
        .name("Last bid");
  }

  /** The row of a key's last bid. */
  public static LastBid lastBid(Bid bid) {
    return new LastBid(
        bid.auction(), bid.bidder(), bid.price(), bid.channel(), bid.dateTime(), bid.extra());
  }

  @Override
  public String sql() {
    return "SELECT auction, bidder, price, channel, dateTime, extra FROM (SELECT *, row_number()"
        + " OVER (PARTITION BY bidder, auction ORDER BY "
        + BidOrder.LATEST_FIRST.sql("bid")
        + ") AS rowNumber FROM bid) WHERE rowNumber = 1";
  }

  /** The key's last bid so far, emitted when event time ends. */
  static final class LastOfKey extends KeyedProcessFunction<BidderOnAuction, Bid, LastBid> {
    private transient ValueState<Bid> last;

    @Override
    public void open() {
      last =
          getRuntimeContext()
              .getState(new ValueStateDescriptor<>("last-bid", EventSerializers.BID));
    }

    @Override
    public void processElement(Bid bid, Context<BidderOnAuction> context, Collector<LastBid> out) {
      Bid current = last.value();
      if (current == null) {
        context.timerService().registerEventTimeTimer(Long.MAX_VALUE);
      }
      if (BidOrder.LATEST_FIRST.ranksBefore(bid, current)) {
        last.update(bid);
      }
    }

    @Override
    public void onTimer(
        long timestamp, OnTimerContext<BidderOnAuction> context, Collector<LastBid> out) {
      out.collect(lastBid(last.value()));
      last.clear();
    }
  }
}
