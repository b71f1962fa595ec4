package io.weir.api.datastream;

import io.weir.api.annotation.PublicEvolving;
import io.weir.api.functions.JoinFunction;
import io.weir.api.functions.KeySelector;
import io.weir.api.windowing.WindowAssigner;

/**
 * An inner join of two streams within windows: {@code
 * first.join(second).where(keyOfFirst).equalTo(keyOfSecond).window(assigner).apply(function)} emits
 * {@code function.join(a, b)} for every pair of a record {@code a} of the first stream and {@code
 * b} of the second with equal keys in the same window, once when the window fires. Both streams
 * need timestamps for event-time windows. The join keeps both sides of each window in keyed state
 * until the window fires, so a window's records of both sides must fit there. When both streams
 * declared their record classes ({@link DataStream#returns}) before {@code apply}, the window keeps
 * them field by field by those classes' serializers instead of by Java serialization.
 */
@PublicEvolving
public final class JoinedStreams<A, B> {
  private final DataStream<A> first;
  private final DataStream<B> second;

  JoinedStreams(DataStream<A> first, DataStream<B> second) {
    this.first = first;
    this.second = second;
  }

  /** The key of the first stream's records. */
  public <K> Where<K> where(KeySelector<A, K> firstKey) {
    return new Where<>(firstKey);
  }

  /** The join after {@code where}: the second stream's key comes next. */
  public final class Where<K> {
    private final KeySelector<A, K> firstKey;

    private Where(KeySelector<A, K> firstKey) {
      this.firstKey = firstKey;
    }

    /** The key of the second stream's records; records join when the two keys are equal. */
    public EqualTo equalTo(KeySelector<B, K> secondKey) {
      return new EqualTo(secondKey);
    }

    /** The join with both keys: the window comes next. */
    public final class EqualTo {
      private final KeySelector<B, K> secondKey;

      private EqualTo(KeySelector<B, K> secondKey) {
        this.secondKey = secondKey;
      }

      public WithWindow window(WindowAssigner<? super TaggedUnion<A, B>> assigner) {
        return new WithWindow(assigner);
      }

      /** The join with its window: {@link #apply} makes it a stream. */
      public final class WithWindow {
        private final WindowAssigner<? super TaggedUnion<A, B>> assigner;

        private WithWindow(WindowAssigner<? super TaggedUnion<A, B>> assigner) {
          this.assigner = assigner;
        }

        public <R> DataStream<R> apply(JoinFunction<A, B, R> function) {
          DataStream<TaggedUnion<A, B>> firstTagged = first.map(new WindowJoin.TagFirst<A, B>());
          DataStream<TaggedUnion<A, B>> secondTagged = second.map(new WindowJoin.TagSecond<A, B>());
          return firstTagged
              .union(secondTagged)
              .keyBy(new WindowJoin.KeyOfEither<>(firstKey, secondKey))
              .window(assigner)
              .process(
                  new WindowJoin.PairsInWindow<A, B, K, R>(
                      function, recordType(first), recordType(second)));
        }
      }
    }
  }

  @SuppressWarnings("unchecked")
  private static <T> Class<T> recordType(DataStream<T> stream) {
    return (Class<T>) stream.declaredRecordType();
  }
}
