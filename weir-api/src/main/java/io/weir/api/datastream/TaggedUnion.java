package io.weir.api.datastream;

import io.weir.api.annotation.Internal;
import java.io.Serializable;
import java.util.Objects;

/**
 * A record of either of two streams, tagged with which: how a window join carries both inputs
 * through one union, one keyBy and one window (as Flink's {@code CoGroupedStreams.TaggedUnion}).
 * Exactly one of {@link #first()} and {@link #second()} is set.
 */
@Internal
public final class TaggedUnion<A, B> implements Serializable {
  private static final long serialVersionUID = 1L;

  private final A first;
  private final B second;

  private TaggedUnion(A first, B second) {
    this.first = first;
    this.second = second;
  }

  public static <A, B> TaggedUnion<A, B> ofFirst(A value) {
    return new TaggedUnion<>(Objects.requireNonNull(value, "a joined record"), null);
  }

  public static <A, B> TaggedUnion<A, B> ofSecond(B value) {
    return new TaggedUnion<>(null, Objects.requireNonNull(value, "a joined record"));
  }

  public boolean isFirst() {
    return first != null;
  }

  /** The first stream's record, or null when this is the second's. */
  public A first() {
    return first;
  }

  /** The second stream's record, or null when this is the first's. */
  public B second() {
    return second;
  }

  @Override
  public boolean equals(Object other) {
    return other instanceof TaggedUnion<?, ?> union
        && Objects.equals(first, union.first)
        && Objects.equals(second, union.second);
  }

  @Override
  public int hashCode() {
    return Objects.hash(first, second);
  }

  @Override
  public String toString() {
    return isFirst() ? "first(" + first + ")" : "second(" + second + ")";
  }
}
