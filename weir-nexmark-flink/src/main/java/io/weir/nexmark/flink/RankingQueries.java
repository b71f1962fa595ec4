package io.weir.nexmark.flink;

import io.weir.nexmark.model.Bid;
import io.weir.nexmark.model.Event;
import io.weir.nexmark.queries.BidOrder;
import io.weir.nexmark.queries.Query18;
import io.weir.nexmark.queries.Query18.LastBid;
import io.weir.nexmark.queries.Query19;
import io.weir.nexmark.queries.Query19.RankedBid;
import java.util.ArrayList;
import org.apache.flink.api.common.functions.OpenContext;
import org.apache.flink.api.common.state.ValueState;
import org.apache.flink.api.common.state.ValueStateDescriptor;
import org.apache.flink.api.common.typeinfo.TypeHint;
import org.apache.flink.api.common.typeinfo.TypeInformation;
import org.apache.flink.api.common.typeinfo.Types;
import org.apache.flink.api.java.tuple.Tuple2;
import org.apache.flink.streaming.api.datastream.DataStream;
import org.apache.flink.streaming.api.functions.KeyedProcessFunction;
import org.apache.flink.util.Collector;

/**
 * The rankings, each key's answer emitted once when event time ends (a timer at the end of time,
 * which the end of the bounded input reaches), as in Weir's: q18 (each bidder's last bid on each
 * auction, {@link BidOrder#LATEST_FIRST}) and q19 (each auction's ten highest bids, {@link
 * BidOrder#HIGHEST_PRICE_FIRST}, with their rank).
 */
final class RankingQueries {
  private RankingQueries() {}

  static DataStream<LastBid> lastBids(DataStream<Event> events) {
    return SelectionQueries.bids(events)
        .keyBy(bid -> Tuple2.of(bid.bidder(), bid.auction()), Types.TUPLE(Types.LONG, Types.LONG))
        .process(new LastOfKey())
        .returns(LastBid.class)
        .name("Last bid");
  }

  static DataStream<RankedBid> topBids(DataStream<Event> events) {
    return SelectionQueries.bids(events)
        .keyBy(Bid::auction, Types.LONG)
        .process(new TopBids())
        .returns(RankedBid.class)
        .name("Top bids");
  }

  /** The key's last bid so far, emitted when event time ends. */
  static final class LastOfKey extends KeyedProcessFunction<Tuple2<Long, Long>, Bid, LastBid> {
    private transient ValueState<Bid> last;

    @Override
    public void open(OpenContext openContext) {
      last = getRuntimeContext().getState(new ValueStateDescriptor<>("last-bid", Bid.class));
    }

    @Override
    public void processElement(Bid bid, Context context, Collector<LastBid> out) throws Exception {
      Bid current = last.value();
      if (current == null) {
        context.timerService().registerEventTimeTimer(Long.MAX_VALUE);
      }
      if (BidOrder.LATEST_FIRST.ranksBefore(bid, current)) {
        last.update(bid);
      }
    }

    @Override
    public void onTimer(long timestamp, OnTimerContext context, Collector<LastBid> out)
        throws Exception {
      out.collect(Query18.lastBid(last.value()));
      last.clear();
    }
  }

  /** The auction's highest bids so far, best first, emitted when event time ends. */
  static final class TopBids extends KeyedProcessFunction<Long, Bid, RankedBid> {
    private static final int TOP = Query19.TOP;
    private transient ValueState<ArrayList<Bid>> top;

    @Override
    public void open(OpenContext openContext) {
      top =
          getRuntimeContext()
              .getState(
                  new ValueStateDescriptor<>(
                      "top-bids", TypeInformation.of(new TypeHint<ArrayList<Bid>>() {})));
    }

    @Override
    public void processElement(Bid bid, Context context, Collector<RankedBid> out)
        throws Exception {
      ArrayList<Bid> bids = top.value();
      if (bids == null) {
        bids = new ArrayList<>(TOP + 1);
        context.timerService().registerEventTimeTimer(Long.MAX_VALUE);
      }
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
      top.update(bids);
    }

    @Override
    public void onTimer(long timestamp, OnTimerContext context, Collector<RankedBid> out)
        throws Exception {
      ArrayList<Bid> bids = top.value();
      for (int rank = 0; rank < bids.size(); rank++) {
        Bid bid = bids.get(rank);
        out.collect(
            new RankedBid(bid.auction(), bid.bidder(), bid.price(), bid.dateTime(), rank + 1));
      }
      top.clear();
    }
  }
}
