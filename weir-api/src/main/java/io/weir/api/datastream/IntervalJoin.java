package io.weir.api.datastream;

import io.weir.api.annotation.PublicEvolving;
import io.weir.api.functions.ProcessJoinFunction;
import io.weir.api.graph.Input;
import io.weir.api.graph.OperatorSpec;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

/**
 * An interval join of two keyed streams being described: {@code
 * left.intervalJoin(right).between(lower, upper).process(function)}. Pairs a left record at time t
 * with every right record of the same key at a time in {@code [t + lower, t + upper]}. Both sides
 * wait in keyed state until the minimum of the two inputs' watermarks has passed the time where no
 * partner can come any more; so both inputs need timestamps and watermarks, and a record later than
 * the watermark finds only the partners still kept.
 *
 * @param <L> the left records
 * @param <R> the right records
 * @param <K> the key both sides are keyed by
 */
@PublicEvolving
public final class IntervalJoin<L, R, K> {
  private final KeyedStream<L, K> left;
  private final KeyedStream<R, K> right;

  IntervalJoin(KeyedStream<L, K> left, KeyedStream<R, K> right) {
    this.left = left;
    this.right = right;
  }

  /** The bounds, both inclusive, of a right record's time relative to its left record's. */
  public Bounded<L, R, K> between(Duration lower, Duration upper) {
    if (lower.compareTo(upper) > 0) {
      throw new IllegalArgumentException(
          "The interval join's lower bound " + lower + " is after its upper bound " + upper);
    }
    return new Bounded<>(this, lower.toMillis(), upper.toMillis());
  }

  /** An interval join with its bounds; {@link #process} adds the join operator. */
  public static final class Bounded<L, R, K> {
    private final IntervalJoin<L, R, K> join;
    private final long lowerMillis;
    private final long upperMillis;

    private Bounded(IntervalJoin<L, R, K> join, long lowerMillis, long upperMillis) {
      this.join = join;
      this.lowerMillis = lowerMillis;
      this.upperMillis = upperMillis;
    }

    /** Calls {@code function} once for every pair in the interval. */
    public <OUT> DataStream<OUT> process(ProcessJoinFunction<L, R, OUT> function) {
      List<Input> inputs = new ArrayList<>(join.left.downstreamInputs());
      inputs.addAll(join.right.downstreamInputs());
      OperatorSpec spec =
          new OperatorSpec.IntervalJoin(
              function,
              lowerMillis,
              upperMillis,
              join.left.downstreamInputs().size(),
              join.right.keySelector());
      return new DataStream<>(join.left.env, join.left.env.add(spec, inputs, -1));
    }
  }
}
