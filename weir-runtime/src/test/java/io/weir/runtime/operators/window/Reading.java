package io.weir.runtime.operators.window;

import io.weir.api.functions.AggregateFunction;
import java.io.Serializable;

/** A test record: a value of a key. */
record Reading(String key, long value) implements Serializable {
  static Reading of(String key, long value) {
    return new Reading(key, value);
  }

  static Reading sum(Reading a, Reading b) {
    return new Reading(a.key, a.value + b.value);
  }

  /** What {@link CountAndSum} keeps per window. */
  record Tally(String key, long count, long sum) implements Serializable {}

  /** Counts a window's readings and sums their values: emits {@code key:count:sum}. */
  static final class CountAndSum implements AggregateFunction<Reading, Tally, String> {
    @Override
    public Tally createAccumulator() {
      return new Tally(null, 0, 0);
    }

    @Override
    public Tally add(Reading value, Tally tally) {
      return new Tally(value.key(), tally.count() + 1, tally.sum() + value.value());
    }

    @Override
    public String getResult(Tally tally) {
      return tally.key() + ":" + tally.count() + ":" + tally.sum();
    }

    @Override
    public Tally merge(Tally a, Tally b) {
      return new Tally(a.key(), a.count() + b.count(), a.sum() + b.sum());
    }
  }
}
