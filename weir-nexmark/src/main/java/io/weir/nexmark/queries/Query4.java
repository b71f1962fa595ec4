package io.weir.nexmark.queries;

import io.weir.api.datastream.DataStream;
import io.weir.api.functions.AggregateFunction;
import io.weir.api.functions.Collector;
import io.weir.api.functions.ProcessWindowFunction;
import io.weir.api.windowing.TimeWindow;
import io.weir.api.windowing.TumblingEventTimeWindows;
import io.weir.nexmark.model.Event;
import java.io.Serializable;
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

  /**
   * The count and the sum of a window's selling prices. A POJO, so that state kept serialized
   * (RocksDB) writes it field by field on every record: the field-by-field serializer writes no
   * {@code long[]}; it stays {@link Serializable} for the heap's checkpoints.
   */
  public static final class CountAndSum implements Serializable {
    public long count;
    public long sum;
  }

  /** Counts and sums the selling prices of a window. */
  static final class SumPrices
      implements AggregateFunction<WinningBids.Winner, CountAndSum, CountAndSum> {
    @Override
    public CountAndSum createAccumulator() {
      return new CountAndSum();
    }

    @Override
    public CountAndSum add(WinningBids.Winner winner, CountAndSum prices) {
      prices.count++;
      prices.sum += winner.bid().price();
      return prices;
    }

    @Override
    public CountAndSum getResult(CountAndSum prices) {
      return prices;
    }

    @Override
    public CountAndSum merge(CountAndSum a, CountAndSum b) {
      CountAndSum merged = new CountAndSum();
      merged.count = a.count + b.count;
      merged.sum = a.sum + b.sum;
      return merged;
    }
  }

  /** The window's mean, with the category and the window's start. */
  static final class Average
      extends ProcessWindowFunction<CountAndSum, CategoryPrice, Long, TimeWindow> {
    @Override
    public void process(
        Long category,
        Context<TimeWindow> context,
        Iterable<CountAndSum> sums,
        Collector<CategoryPrice> out) {
      for (CountAndSum prices : sums) {
        out.collect(
            new CategoryPrice(
                category, context.window().start(), prices.count, prices.sum / prices.count));
      }
    }
  }
}
