package io.weir.nexmark.flink;

import io.weir.nexmark.model.Event;
import io.weir.nexmark.queries.Query4;
import io.weir.nexmark.queries.Query4.CategoryPrice;
import io.weir.nexmark.queries.Query6;
import io.weir.nexmark.queries.Query6.SellerPrice;
import io.weir.nexmark.queries.Query9.AuctionWinner;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import org.apache.flink.api.common.functions.AggregateFunction;
import org.apache.flink.api.common.functions.OpenContext;
import org.apache.flink.api.common.state.MapState;
import org.apache.flink.api.common.state.MapStateDescriptor;
import org.apache.flink.api.common.state.ValueState;
import org.apache.flink.api.common.state.ValueStateDescriptor;
import org.apache.flink.api.common.typeinfo.TypeHint;
import org.apache.flink.api.common.typeinfo.TypeInformation;
import org.apache.flink.api.common.typeinfo.Types;
import org.apache.flink.streaming.api.datastream.DataStream;
import org.apache.flink.streaming.api.functions.KeyedProcessFunction;
import org.apache.flink.streaming.api.functions.windowing.ProcessWindowFunction;
import org.apache.flink.streaming.api.windowing.assigners.TumblingEventTimeWindows;
import org.apache.flink.streaming.api.windowing.windows.TimeWindow;
import org.apache.flink.util.Collector;

/**
 * The queries over the auctions' winning bids ({@link WinningBids}): q9 (the winners themselves),
 * q4 (the mean selling price per category of the auctions closed in each tumbling window, rounded
 * down) and q6 (the mean selling price of each seller's last ten closed auctions, taken in the
 * order of expiry, then auction id), each as its Weir counterpart defines it.
 */
final class WinnerQueries {
  private WinnerQueries() {}

  static DataStream<AuctionWinner> winners(DataStream<Event> events) {
    return WinningBids.of(events);
  }

  static DataStream<CategoryPrice> categoryPrices(DataStream<Event> events) {
    return WinningBids.of(events)
        .keyBy(AuctionWinner::category, Types.LONG)
        .window(TumblingEventTimeWindows.of(Query4.WINDOW))
        .aggregate(
            new SumPrices(),
            new Average(),
            TypeInformation.of(long[].class),
            TypeInformation.of(long[].class),
            TypeInformation.of(CategoryPrice.class))
        .name("Average per category");
  }

  static DataStream<SellerPrice> sellerPrices(DataStream<Event> events) {
    return WinningBids.of(events)
        .keyBy(AuctionWinner::seller, Types.LONG)
        .process(new LastAuctionsAverage())
        .returns(SellerPrice.class)
        .name("Average of last auctions");
  }

  /** The count and the sum of the selling prices. */
  static final class SumPrices implements AggregateFunction<AuctionWinner, long[], long[]> {
    @Override
    public long[] createAccumulator() {
      return new long[2];
    }

    @Override
    public long[] add(AuctionWinner winner, long[] countAndSum) {
      countAndSum[0]++;
      countAndSum[1] += winner.price();
      return countAndSum;
    }

    @Override
    public long[] getResult(long[] countAndSum) {
      return countAndSum;
    }

    @Override
    public long[] merge(long[] a, long[] b) {
      return new long[] {a[0] + b[0], a[1] + b[1]};
    }
  }

  /** The window's mean, with the category and the window's start. */
  static final class Average
      extends ProcessWindowFunction<long[], CategoryPrice, Long, TimeWindow> {
    @Override
    public void process(
        Long category, Context context, Iterable<long[]> sums, Collector<CategoryPrice> out) {
      for (long[] countAndSum : sums) {
        out.collect(
            new CategoryPrice(
                category,
                context.window().getStart(),
                countAndSum[0],
                countAndSum[1] / countAndSum[0]));
      }
    }
  }

  /**
   * A seller's winners, grouped by expiry until event time passes it (when every winner closed no
   * later has arrived), then taken in closing order with the prices of the last ten; the layout of
   * Weir's q6, so that each expiry's timer reads only its own winners.
   */
  static final class LastAuctionsAverage
      extends KeyedProcessFunction<Long, AuctionWinner, SellerPrice> {
    private static final Comparator<AuctionWinner> AUCTION_ORDER =
        Comparator.comparingLong(AuctionWinner::id);

    private transient MapState<Long, List<AuctionWinner>> waiting;
    private transient ValueState<ArrayDeque<Long>> lastPrices;

    @Override
    public void open(OpenContext openContext) {
      waiting =
          getRuntimeContext()
              .getMapState(
                  new MapStateDescriptor<>(
                      "waiting-winners",
                      Types.LONG,
                      Types.LIST(TypeInformation.of(AuctionWinner.class))));
      lastPrices =
          getRuntimeContext()
              .getState(
                  new ValueStateDescriptor<>(
                      "last-prices", TypeInformation.of(new TypeHint<ArrayDeque<Long>>() {})));
    }

    @Override
    public void processElement(AuctionWinner winner, Context context, Collector<SellerPrice> out)
        throws Exception {
      List<AuctionWinner> known = waiting.get(winner.expires());
      List<AuctionWinner> winners = known == null ? new ArrayList<>(1) : new ArrayList<>(known);
      winners.add(winner);
      waiting.put(winner.expires(), winners);
      context.timerService().registerEventTimeTimer(winner.expires());
    }

    @Override
    public void onTimer(long timestamp, OnTimerContext context, Collector<SellerPrice> out)
        throws Exception {
      List<AuctionWinner> closing = waiting.get(timestamp);
      if (closing == null) {
        return;
      }
      List<AuctionWinner> closed = new ArrayList<>(closing);
      closed.sort(AUCTION_ORDER);
      ArrayDeque<Long> prices =
          lastPrices.value() == null ? new ArrayDeque<>() : lastPrices.value();
      for (AuctionWinner winner : closed) {
        prices.addLast(winner.price());
        if (prices.size() > Query6.LAST_AUCTIONS) {
          prices.removeFirst();
        }
        long sum = prices.stream().mapToLong(Long::longValue).sum();
        out.collect(new SellerPrice(context.getCurrentKey(), winner.id(), sum / prices.size()));
      }
      lastPrices.update(prices);
      waiting.remove(timestamp);
    }
  }
}
