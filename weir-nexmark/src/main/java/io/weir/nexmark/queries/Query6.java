package io.weir.nexmark.queries;

import io.weir.api.datastream.DataStream;
import io.weir.api.functions.Collector;
import io.weir.api.functions.KeyedProcessFunction;
import io.weir.api.state.MapState;
import io.weir.api.state.MapStateDescriptor;
import io.weir.api.state.StateSerializers;
import io.weir.api.state.ValueState;
import io.weir.api.state.ValueStateDescriptor;
import io.weir.api.types.TypeSerializer;
import io.weir.nexmark.model.Event;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;

/**
 * q6: the average selling price of each seller's last ten closed auctions, once per closed auction.
 *
 * <p>Defined precisely (Flink's SQL suite cannot run this query): an auction closes at its expiry
 * with its winning bid (q9); auctions without a winner do not count. A seller's closed auctions are
 * ordered by expiry, then by auction id. For each closed auction the query emits the seller, the
 * auction and the mean, rounded down, of the selling prices of that auction and of the seller's up
 * to nine closed auctions before it in that order.
 *
 * <p>Winners reach a seller's key in any order; each waits in keyed state until event time passes
 * its expiry, when every winner closed no later has arrived, and is then taken in the order above.
 */
public final class Query6 implements NexmarkQuery<Query6.SellerPrice> {
  public static final int LAST_AUCTIONS = 10;

  public record SellerPrice(long seller, long auction, long averagePrice) {}

  @Override
  public String name() {
    return "q6";
  }

  @Override
  public String description() {
    return "average selling price of each seller's last 10 closed auctions";
  }

  @Override
  public DataStream<SellerPrice> apply(DataStream<Event> events) {
    return WinningBids.of(events)
        .keyBy(winner -> winner.auction().seller())
        .process(new LastAuctionsAverage())
        .name("Average of last auctions");
  }

  @Override
  public String sql() {
    return "WITH winner AS ("
        + WinningBids.sql()
        + ") SELECT seller, id AS auction, sum(price) OVER last // count(*) OVER last"
        + " AS averagePrice FROM winner WINDOW last AS (PARTITION BY seller ORDER BY expires, id"
        + " ROWS BETWEEN "
        + (LAST_AUCTIONS - 1)
        + " PRECEDING AND CURRENT ROW)";
  }

  /** The selling prices of a seller's last closed auctions, oldest first. */
  record LastPrices(List<Long> prices) {}

  /** A seller's winners that close at the same time. */
  record ClosingWinners(List<WinningBids.Winner> winners) {}

  /**
   * A seller's winners in the order they closed, and the prices of the last ten. The winners wait
   * grouped by their expiry, so the timer of an expiry reads and deletes only its own winners: a
   * seller with many auctions closing close together would otherwise read and rewrite all its
   * waiting winners once per expiry. A timer at an expiry finds every winner of that expiry, and
   * the timers of earlier ones have fired: a winner arrives before the watermark of its expiry.
   */
  static final class LastAuctionsAverage
      extends KeyedProcessFunction<Long, WinningBids.Winner, SellerPrice> {
    private static final Comparator<WinningBids.Winner> AUCTION_ORDER =
        Comparator.comparingLong(winner -> winner.auction().id());

    private static final TypeSerializer<ClosingWinners> CLOSING_WINNERS =
        TypeSerializer.of(ClosingWinners.class);
    private static final TypeSerializer<LastPrices> LAST_PRICES =
        TypeSerializer.of(LastPrices.class);

    private transient MapState<Long, ClosingWinners> waiting;
    private transient ValueState<LastPrices> lastPrices;

    @Override
    public void open() {
      waiting =
          getRuntimeContext()
              .getMapState(
                  new MapStateDescriptor<>(
                      "waiting-winners", StateSerializers.longs(), CLOSING_WINNERS));
      lastPrices =
          getRuntimeContext().getState(new ValueStateDescriptor<>("last-prices", LAST_PRICES));
    }

    @Override
    public void processElement(
        WinningBids.Winner winner, Context<Long> context, Collector<SellerPrice> out) {
      long expires = winner.auction().expires();
      ClosingWinners known = waiting.get(expires);
      List<WinningBids.Winner> winners =
          known == null ? new ArrayList<>(1) : new ArrayList<>(known.winners());
      winners.add(winner);
      waiting.put(expires, new ClosingWinners(winners));
      context.timerService().registerEventTimeTimer(expires);
    }

    @Override
    public void onTimer(long timestamp, OnTimerContext<Long> context, Collector<SellerPrice> out) {
      ClosingWinners closing = waiting.get(timestamp);
      if (closing == null) {
        return;
      }
      List<WinningBids.Winner> closed = new ArrayList<>(closing.winners());
      closed.sort(AUCTION_ORDER);
      LastPrices last = lastPrices.value();
      ArrayDeque<Long> prices = last == null ? new ArrayDeque<>() : new ArrayDeque<>(last.prices());
      for (WinningBids.Winner winner : closed) {
        prices.addLast(winner.bid().price());
        if (prices.size() > LAST_AUCTIONS) {
          prices.removeFirst();
        }
        long sum = prices.stream().mapToLong(Long::longValue).sum();
        out.collect(
            new SellerPrice(context.currentKey(), winner.auction().id(), sum / prices.size()));
      }
      lastPrices.update(new LastPrices(new ArrayList<>(prices)));
      waiting.remove(timestamp);
    }
  }
}
