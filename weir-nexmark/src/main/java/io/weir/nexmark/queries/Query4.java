package io.weir.nexmark.queries;

import io.weir.api.datastream.DataStream;
import io.weir.api.functions.AggregateFunction;
import io.weir.api.functions.Collector;
import io.weir.api.functions.ProcessWindowFunction;
import io.weir.api.windowing.TimeWindow;
import io.weir.api.windowing.TumblingEventTimeWindows;
import io.weir.nexmark.model.Event;
import java.time.Duration;

/**
 * q4: the average selling price per category of the auctions that closed in each ten-second window
 * of event time (by their expiry; windows aligned to the epoch). The selling price is the winning
 * bid's (q9); the mean is rounded down. Flink's suite averages over all time as an updating result;
 * Weir writes append-only results exactly once, so it averages per window, as Beam's Nexmark does.
 */
public final class Query4 implements NexmarkQuery<Query4.CategoryPrice> {
  public static final Duration WINDOW = Duration.ofSeconds(10);

  public record CategoryPrice(long category, long windowStart, long auctions, long averagePrice) {}

  @Override
  public String name() {
    return "q4";
  }

  @Override
  public String description() {
    return "average price per category of the auctions closed in each 10-second window";
  }

  @Override
  public DataStream<CategoryPrice> apply(DataStream<Event> events) {
    return WinningBids.of(events)
        .keyBy(winner -> winner.auction().category())
        .window(TumblingEventTimeWindows.of(WINDOW))
        .aggregate(new SumPrices(), new Average())
        .name("Average per category");
  }

  @Override
  public String sql() {
    long size = WINDOW.toMillis();
    return "WITH winner AS ("
        + WinningBids.sql()
        + ") SELECT category, expires // "
        + size
        + " * "
        + size
        + " AS windowStart, count(*) AS auctions, sum(price) // count(*) AS averagePrice"
        + " FROM winner GROUP BY category, windowStart";
  }

  /** The count and the sum of the selling prices. */
  static final class SumPrices implements AggregateFunction<WinningBids.Winner, long[], long[]> {
    @Override
    public long[] createAccumulator() {
      return new long[2];
    }

    @Override
    public long[] add(WinningBids.Winner winner, long[] countAndSum) {
      countAndSum[0]++;
      countAndSum[1] += winner.bid().price();
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
        Long category,
        Context<TimeWindow> context,
        Iterable<long[]> sums,
        Collector<CategoryPrice> out) {
      for (long[] countAndSum : sums) {
        out.collect(
            new CategoryPrice(
                category,
                context.window().start(),
                countAndSum[0],
                countAndSum[1] / countAndSum[0]));
      }
    }
  }
}
