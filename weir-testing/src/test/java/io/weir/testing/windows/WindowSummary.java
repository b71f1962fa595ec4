package io.weir.testing.windows;

import io.weir.api.functions.AggregateFunction;
import io.weir.api.functions.Collector;
import io.weir.api.functions.ProcessWindowFunction;
import io.weir.api.windowing.TimeWindow;
import io.weir.api.windowing.Window;
import java.io.Serializable;

/** What a window of one user's clicks comes to; the reference computes the same by a loop. */
record WindowSummary(String user, long start, long end, long count, long sum)
    implements Serializable {

  /** A count and a sum; the accumulator of {@link CountAndSum}. */
  record Totals(long count, long sum) implements Serializable {
    Totals plus(long value) {
      return new Totals(count + 1, sum + value);
    }
  }

  /** Counts and sums a window's clicks incrementally. */
  static final class CountAndSum implements AggregateFunction<Click, Totals, Totals> {
    @Override
    public Totals createAccumulator() {
      return new Totals(0, 0);
    }

    @Override
    public Totals add(Click click, Totals totals) {
      return totals.plus(click.value());
    }

    @Override
    public Totals getResult(Totals totals) {
      return totals;
    }

    @Override
    public Totals merge(Totals a, Totals b) {
      return new Totals(a.count() + b.count(), a.sum() + b.sum());
    }
  }

  /** Summarizes a window from all its clicks. */
  static final class FromClicks
      extends ProcessWindowFunction<Click, WindowSummary, String, TimeWindow> {
    @Override
    public void process(
        String user,
        Context<TimeWindow> context,
        Iterable<Click> clicks,
        Collector<WindowSummary> out) {
      long count = 0;
      long sum = 0;
      for (Click click : clicks) {
        count++;
        sum += click.value();
      }
      TimeWindow window = context.window();
      out.collect(new WindowSummary(user, window.start(), window.end(), count, sum));
    }
  }

  /** Summarizes a window from its one pre-aggregated value; fails if it is handed more. */
  static final class FromTotals<W extends Window>
      extends ProcessWindowFunction<Totals, WindowSummary, String, W> {
    @Override
    public void process(
        String user, Context<W> context, Iterable<Totals> values, Collector<WindowSummary> out) {
      var iterator = values.iterator();
      Totals totals = iterator.next();
      if (iterator.hasNext()) {
        throw new IllegalStateException("more than one pre-aggregated value");
      }
      long start = context.window() instanceof TimeWindow time ? time.start() : 0;
      long end = context.window() instanceof TimeWindow time ? time.end() : 0;
      out.collect(new WindowSummary(user, start, end, totals.count(), totals.sum()));
    }
  }

  /** Summarizes a window from its one reduced click: only its sum, with count 0. */
  static final class FromReduced
      extends ProcessWindowFunction<Click, WindowSummary, String, TimeWindow> {
    @Override
    public void process(
        String user,
        Context<TimeWindow> context,
        Iterable<Click> clicks,
        Collector<WindowSummary> out) {
      Click reduced = clicks.iterator().next();
      TimeWindow window = context.window();
      out.collect(new WindowSummary(user, window.start(), window.end(), 0, reduced.value()));
    }
  }

  /** Adds two clicks' values. */
  static Click sum(Click a, Click b) {
    return new Click(a.user(), Math.max(a.time(), b.time()), a.value() + b.value());
  }

  WindowSummary withoutCount() {
    return new WindowSummary(user, start, end, 0, sum);
  }
}
