package io.weir.nexmark.flink;

import io.weir.nexmark.model.Auction;
import io.weir.nexmark.model.Bid;
import io.weir.nexmark.model.Event;
import io.weir.nexmark.queries.BidOrder;
import io.weir.nexmark.queries.Query9;
import io.weir.nexmark.queries.Query9.AuctionWinner;
import java.util.ArrayList;
import java.util.List;
import org.apache.flink.api.common.functions.OpenContext;
import org.apache.flink.api.common.state.ListState;
import org.apache.flink.api.common.state.ListStateDescriptor;
import org.apache.flink.api.common.state.ValueState;
import org.apache.flink.api.common.state.ValueStateDescriptor;
import org.apache.flink.api.common.typeinfo.Types;
import org.apache.flink.streaming.api.datastream.DataStream;
import org.apache.flink.streaming.api.functions.co.KeyedCoProcessFunction;
import org.apache.flink.util.Collector;

/**
 * The winning bid of each auction (q4, q6, q9), as Weir's {@code WinningBids} defines it: of the
 * bids placed from the auction's opening to its expiry (both inclusive), the first in {@link
 * BidOrder#HIGHEST_PRICE_FIRST}, emitted as q9's row when event time reaches the expiry (an
 * event-time timer, so the row carries the expiry as its timestamp). A bid that arrives before its
 * auction waits for it until event time passes the bid's own time.
 */
final class WinningBids extends KeyedCoProcessFunction<Long, Auction, Bid, AuctionWinner> {
  private transient ValueState<Auction> auction;
  private transient ValueState<Bid> highest;
  private transient ListState<Bid> waiting;

  /** The winners of the auctions in {@code events}. */
  static DataStream<AuctionWinner> of(DataStream<Event> events) {
    return SelectionQueries.auctions(events)
        .connect(SelectionQueries.bids(events))
        .keyBy(Auction::id, Bid::auction, Types.LONG)
        .process(new WinningBids())
        .returns(AuctionWinner.class)
        .name("Winning bids");
  }

  @Override
  public void open(OpenContext openContext) {
    auction = getRuntimeContext().getState(new ValueStateDescriptor<>("auction", Auction.class));
    highest = getRuntimeContext().getState(new ValueStateDescriptor<>("highest-bid", Bid.class));
    waiting =
        getRuntimeContext().getListState(new ListStateDescriptor<>("waiting-bids", Bid.class));
  }

  @Override
  public void processElement1(Auction opened, Context context, Collector<AuctionWinner> out)
      throws Exception {
    auction.update(opened);
    context.timerService().registerEventTimeTimer(opened.expires());
    Iterable<Bid> early = waiting.get();
    // Deleting an empty list would still be a write.
    if (early.iterator().hasNext()) {
      for (Bid bid : early) {
        maybeRaise(opened, bid);
      }
      waiting.clear();
    }
  }

  @Override
  public void processElement2(Bid bid, Context context, Collector<AuctionWinner> out)
      throws Exception {
    Auction known = auction.value();
    if (known != null) {
      maybeRaise(known, bid);
    } else {
      waiting.add(bid);
      context.timerService().registerEventTimeTimer(bid.dateTime());
    }
  }

  @Override
  public void onTimer(long timestamp, OnTimerContext context, Collector<AuctionWinner> out)
      throws Exception {
    Auction known = auction.value();
    if (known == null) {
      dropBidsUpTo(timestamp);
    } else if (timestamp == known.expires()) {
      Bid winner = highest.value();
      if (winner != null) {
        out.collect(Query9.winner(known, winner));
      }
      // Later bids on this auction fall after its expiry and wait only until their own time.
      auction.clear();
      highest.clear();
    }
  }

  private void maybeRaise(Auction open, Bid bid) throws Exception {
    if (bid.dateTime() >= open.dateTime()
        && bid.dateTime() <= open.expires()
        && BidOrder.HIGHEST_PRICE_FIRST.ranksBefore(bid, highest.value())) {
      highest.update(bid);
    }
  }

  /** Rewrites the waiting bids only when some are dropped: each waiting bid has a timer. */
  private void dropBidsUpTo(long time) throws Exception {
    List<Bid> left = new ArrayList<>();
    boolean dropped = false;
    for (Bid bid : waiting.get()) {
      if (bid.dateTime() > time) {
        left.add(bid);
      } else {
        dropped = true;
      }
    }
    if (dropped) {
      waiting.update(left);
    }
  }
}
