package io.weir.api.datastream;

import io.weir.api.annotation.Internal;
import io.weir.api.functions.Collector;
import io.weir.api.functions.JoinFunction;
import io.weir.api.functions.KeySelector;
import io.weir.api.functions.MapFunction;
import io.weir.api.functions.ProcessWindowFunction;
import io.weir.api.windowing.TimeWindow;
import java.util.ArrayList;
import java.util.List;

/**
 * The parts a window join is made of, as Flink makes it: each input tagged into a {@link
 * TaggedUnion}, the two unioned, keyed by {@link KeyOfEither}, windowed, and each window's two
 * sides paired by {@link PairsInWindow}. Public so that an operator harness can drive the join's
 * window on its own.
 */
@Internal
public final class WindowJoin {
  private WindowJoin() {}

  /** Tags a record of the first input. */
  static final class TagFirst<A, B> implements MapFunction<A, TaggedUnion<A, B>> {
    @Override
    public TaggedUnion<A, B> map(A value) {
      return TaggedUnion.ofFirst(value);
    }
  }

  /** Tags a record of the second input. */
  static final class TagSecond<A, B> implements MapFunction<B, TaggedUnion<A, B>> {
    @Override
    public TaggedUnion<A, B> map(B value) {
      return TaggedUnion.ofSecond(value);
    }
  }

  /** The join key of a tagged record: the first input's key or the second's. */
  public static final class KeyOfEither<A, B, K> implements KeySelector<TaggedUnion<A, B>, K> {
    private final KeySelector<A, K> firstKey;
    private final KeySelector<B, K> secondKey;

    public KeyOfEither(KeySelector<A, K> firstKey, KeySelector<B, K> secondKey) {
      this.firstKey = firstKey;
      this.secondKey = secondKey;
    }

    @Override
    public K getKey(TaggedUnion<A, B> record) throws Exception {
      return record.isFirst() ? firstKey.getKey(record.first()) : secondKey.getKey(record.second());
    }
  }

  /**
   * Pairs every first-input record of a key's window with every second-input record of it, in
   * arrival order, and joins each pair once per firing. It carries the two inputs' record classes
   * when the streams declared them, so that the window keeps its records by their types.
   */
  public static final class PairsInWindow<A, B, K, R>
      extends ProcessWindowFunction<TaggedUnion<A, B>, R, K, TimeWindow> {
    private final JoinFunction<A, B, R> function;
    private final Class<A> firstType;
    private final Class<B> secondType;

    /** A join whose inputs' record classes are not known. */
    public PairsInWindow(JoinFunction<A, B, R> function) {
      this(function, null, null);
    }

    /** A join of inputs of these record classes; either may be null when not known. */
    public PairsInWindow(JoinFunction<A, B, R> function, Class<A> firstType, Class<B> secondType) {
      this.function = function;
      this.firstType = firstType;
      this.secondType = secondType;
    }

    /** The first input's record class, or null when the stream did not declare it. */
    public Class<A> firstType() {
      return firstType;
    }

    /** The second input's record class, or null when the stream did not declare it. */
    public Class<B> secondType() {
      return secondType;
    }

    @Override
    public void process(
        K key, Context<TimeWindow> context, Iterable<TaggedUnion<A, B>> records, Collector<R> out)
        throws Exception {
      List<A> firsts = new ArrayList<>();
      List<B> seconds = new ArrayList<>();
      for (TaggedUnion<A, B> record : records) {
        if (record.isFirst()) {
          firsts.add(record.first());
        } else {
          seconds.add(record.second());
        }
      }
      for (A first : firsts) {
        for (B second : seconds) {
          out.collect(function.join(first, second));
        }
      }
    }
  }
}
