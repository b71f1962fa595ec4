package io.weir.nexmark.queries;

import io.weir.api.datastream.DataStream;
import io.weir.api.functions.Collector;
import io.weir.api.functions.KeyedProcessFunction;
import io.weir.api.state.ListState;
import io.weir.api.state.ListStateDescriptor;
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

  /** A seller's winners in the order they closed, and the prices of the last ten. */
  static final class LastAuctionsAverage
      extends KeyedProcessFunction<Long, WinningBids.Winner, SellerPrice> {
    private static final Comparator<WinningBids.Winner> CLOSING_ORDER =
        Comparator.<WinningBids.Winner>comparingLong(winner -> winner.auction().expires())
            .thenComparingLong(winner -> winner.auction().id());

    private static final TypeSerializer<WinningBids.Winner> WINNER =
        TypeSerializer.of(WinningBids.Winner.class);
    private static final TypeSerializer<LastPrices> LAST_PRICES =
        TypeSerializer.of(LastPrices.class);

    private transient ListState<WinningBids.Winner> waiting;
    private transient ValueState<LastPrices> lastPrices;

    @Override
    public void open() {
      waiting =
          getRuntimeContext().getListState(new ListStateDescriptor<>("waiting-winners", WINNER));
      lastPrices =
          getRuntimeContext().getState(new ValueStateDescriptor<>("last-prices", LAST_PRICES));
    }

    @Override
    public void processElement(
        WinningBids.Winner winner, Context<Long> context, Collector<SellerPrice> out) {
      waiting.add(winner);
      context.timerService().registerEventTimeTimer(winner.auction().expires());
    }

    @Override
    public void onTimer(long timestamp, OnTimerContext<Long> context, Collector<SellerPrice> out) {
      List<WinningBids.Winner> closed = new ArrayList<>();
      List<WinningBids.Winner> open = new ArrayList<>();
      for (WinningBids.Winner winner : waiting.get()) {
        (winner.auction().expires() <= timestamp ? closed : open).add(winner);
      }
      closed.sort(CLOSING_ORDER);
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
      waiting.update(open);
    }
  }
}
