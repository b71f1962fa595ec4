package io.weir.nexmark.queries;

import io.weir.api.datastream.DataStream;
import io.weir.api.functions.Collector;
import io.weir.api.functions.KeyedCoProcessFunction;
import io.weir.api.functions.KeyedProcessFunction;
import io.weir.api.state.ListState;
import io.weir.api.state.ListStateDescriptor;
import io.weir.api.state.ValueState;
import io.weir.api.state.ValueStateDescriptor;
import io.weir.nexmark.model.Auction;
import io.weir.nexmark.model.Bid;
import io.weir.nexmark.model.Event;
import java.io.Serializable;
import java.util.ArrayList;
import java.util.List;

/**
 * The winning bid of each auction, shared by q4, q6 and q9: of the bids on the auction placed
 * between its opening and its expiry (both inclusive), the first in {@link
 * BidOrder#HIGHEST_PRICE_FIRST}. Auctions without such a bid have no winner. A winner is emitted
 * when event time reaches the auction's expiry, with the expiry as its timestamp.
 *
 * <p>Auctions and bids meet in keyed state by auction id. A bid that arrives before its auction
 * waits for it, at most until event time passes the bid's own time: by then any auction it could
 * belong to (opened no later than the bid) has arrived, since no event is late.
 */
final class WinningBids extends KeyedCoProcessFunction<Long, Auction, Bid, WinningBids.Winner> {
  /** An auction and its winning bid. */
  record Winner(Auction auction, Bid bid) implements Serializable {}

  private transient ValueState<Auction> auction;
  private transient ValueState<Bid> highest;
  private transient ListState<Bid> waiting;

  WinningBids() {}

  /** The winners of the auctions in {@code events}. */
  static DataStream<Winner> of(DataStream<Event> events) {
    return EventStreams.auctions(events)
        .connect(EventStreams.bids(events))
        .keyBy(Auction::id, Bid::auction)
        .process(new WinningBids())
        .name("Winning bids");
  }

  /**
   * The winners in SQL: the auction's columns, and the bid's as {@code bidder}, {@code price},
   * {@code bidDateTime}; for a {@code WITH winner AS (...)}.
   */
  static String sql() {
    return "SELECT * EXCLUDE (rowNumber) FROM (SELECT a.id, a.itemName, a.initialBid, a.reserve,"
        + " a.dateTime, a.expires, a.seller, a.category, b.bidder, b.price,"
        + " b.dateTime AS bidDateTime, row_number() OVER (PARTITION BY a.id ORDER BY "
        + BidOrder.HIGHEST_PRICE_FIRST.sql("b")
        + ") AS rowNumber FROM auction a JOIN bid b ON a.id = b.auction"
        + " AND b.dateTime BETWEEN a.dateTime AND a.expires) WHERE rowNumber = 1";
  }

  @Override
  public void open() {
    auction =
        getRuntimeContext()
            .getState(new ValueStateDescriptor<>("auction", EventSerializers.AUCTION));
    highest =
        getRuntimeContext()
            .getState(new ValueStateDescriptor<>("highest-bid", EventSerializers.BID));
    waiting =
        getRuntimeContext()
            .getListState(new ListStateDescriptor<>("waiting-bids", EventSerializers.BID));
  }

  @Override
  public void processElement1(
      Auction opened, KeyedProcessFunction.Context<Long> context, Collector<Winner> out) {
    auction.update(opened);
    context.timerService().registerEventTimeTimer(opened.expires());
    List<Bid> early = waiting.get();
    // Deleting an empty list would still be a write.
    if (!early.isEmpty()) {
      for (Bid bid : early) {
        maybeRaise(opened, bid);
      }
      waiting.clear();
    }
  }

  @Override
  public void processElement2(
      Bid bid, KeyedProcessFunction.Context<Long> context, Collector<Winner> out) {
    Auction known = auction.value();
    if (known != null) {
      maybeRaise(known, bid);
    } else {
      waiting.add(bid);
      context.timerService().registerEventTimeTimer(bid.dateTime());
    }
  }

  @Override
  public void onTimer(
      long timestamp, KeyedProcessFunction.OnTimerContext<Long> context, Collector<Winner> out) {
    Auction known = auction.value();
    if (known == null) {
      dropBidsUpTo(timestamp);
    } else if (timestamp == known.expires()) {
      Bid winner = highest.value();
      if (winner != null) {
        out.collect(new Winner(known, winner));
      }
      // Later bids on this auction fall after its expiry and wait only until their own time.
      auction.clear();
      highest.clear();
    }
  }

  private void maybeRaise(Auction open, Bid bid) {
    if (bid.dateTime() >= open.dateTime()
        && bid.dateTime() <= open.expires()
        && BidOrder.HIGHEST_PRICE_FIRST.ranksBefore(bid, highest.value())) {
      highest.update(bid);
    }
  }

  /** Rewrites the waiting bids only when some are dropped: each waiting bid has a timer. */
  private void dropBidsUpTo(long time) {
    List<Bid> all = waiting.get();
    List<Bid> left = new ArrayList<>(all.size());
    for (Bid bid : all) {
      if (bid.dateTime() > time) {
        left.add(bid);
      }
    }
    if (left.size() < all.size()) {
      waiting.update(left);
    }
  }
}
