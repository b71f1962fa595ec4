package io.weir.nexmark.queries;

import io.weir.api.datastream.DataStream;
import io.weir.api.functions.Collector;
import io.weir.api.functions.KeyedProcessFunction;
import io.weir.api.state.ValueState;
import io.weir.api.state.ValueStateDescriptor;
import io.weir.api.types.TypeSerializer;
import io.weir.nexmark.model.Bid;
import io.weir.nexmark.model.Event;
import java.util.ArrayList;
import java.util.List;

/**
 * q19: auction top-10 price, the ten highest bids of each auction with their rank (1 for the
 * highest), ranked by {@link BidOrder#HIGHEST_PRICE_FIRST}: at the same price the earlier bid ranks
 * first.
 *
 * <p>As q18, each auction's top ten come out once, when event time ends (at the end of a bounded
 * input), where Flink's suite answers with an updating result.
 */
public final class Query19 implements NexmarkQuery<Query19.RankedBid> {
  public static final int TOP = 10;

  public record RankedBid(long auction, long bidder, long price, long dateTime, long rankNumber) {}

  @Override
  public String name() {
    return "q19";
  }

  @Override
  public String description() {
    return "auction top-10 price: the ten highest bids of each auction";
  }

  @Override
  public DataStream<RankedBid> apply(DataStream<Event> events) {
    return EventStreams.bids(events).keyBy(Bid::auction).process(new TopBids()).name("Top bids");
  }

  @Override
  public String sql() {
    return "SELECT auction, bidder, price, dateTime, rankNumber FROM (SELECT *, row_number()"
        + " OVER (PARTITION BY auction ORDER BY "
        + BidOrder.HIGHEST_PRICE_FIRST.sql("bid")
        + ") AS rankNumber FROM bid) WHERE rankNumber <= "
        + TOP;
  }

  /** An auction's highest bids so far, best first; the list is mutable. */
  record BestBids(List<Bid> bestFirst) {}

  /** The auction's highest bids so far, best first, emitted when event time ends. */
  static final class TopBids extends KeyedProcessFunction<Long, Bid, RankedBid> {
    private static final TypeSerializer<BestBids> BEST_BIDS = TypeSerializer.of(BestBids.class);

    private transient ValueState<BestBids> top;

    @Override
    public void open() {
      top = getRuntimeContext().getState(new ValueStateDescriptor<>("top-bids", BEST_BIDS));
    }

    @Override
    public void processElement(Bid bid, Context<Long> context, Collector<RankedBid> out) {
      BestBids best = top.value();
      if (best == null) {
        best = new BestBids(new ArrayList<>(TOP + 1));
        context.timerService().registerEventTimeTimer(Long.MAX_VALUE);
      }
      List<Bid> bids = best.bestFirst();
      if (bids.size() == TOP && !BidOrder.HIGHEST_PRICE_FIRST.ranksBefore(bid, bids.get(TOP - 1))) {
        return;
      }
      int position = 0;
      while (position < bids.size()
          && BidOrder.HIGHEST_PRICE_FIRST.comparator().compare(bids.get(position), bid) <= 0) {
        position++;
      }
      bids.add(position, bid);
      if (bids.size() > TOP) {
        bids.remove(TOP);
      }
      top.update(best);
    }

    @Override
    public void onTimer(long timestamp, OnTimerContext<Long> context, Collector<RankedBid> out) {
      List<Bid> bids = top.value().bestFirst();
      for (int rank = 0; rank < bids.size(); rank++) {
        Bid bid = bids.get(rank);
        out.collect(
            new RankedBid(bid.auction(), bid.bidder(), bid.price(), bid.dateTime(), rank + 1));
      }
      top.clear();
    }
  }
}
