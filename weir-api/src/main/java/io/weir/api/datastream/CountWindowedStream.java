package io.weir.api.datastream;

import io.weir.api.annotation.PublicEvolving;
import io.weir.api.functions.AggregateFunction;
import io.weir.api.functions.ProcessWindowFunction;
import io.weir.api.functions.ReduceFunction;
import io.weir.api.graph.OperatorSpec;
import io.weir.api.windowing.GlobalWindow;

/**
 * A keyed stream cut into windows of {@code size} records per key, as Flink's {@code
 * countWindow(size)}: each key's window fires when it holds {@code size} records and is cleared,
 * and the records left over at the end of input never fire. Results carry the timestamp of the
 * {@link GlobalWindow}, {@link Long#MAX_VALUE}.
 */
@PublicEvolving
public final class CountWindowedStream<T, K> {
  private final KeyedStream<T, K> input;
  private final long size;

  CountWindowedStream(KeyedStream<T, K> input, long size) {
    if (size <= 0) {
      throw new IllegalArgumentException("A count window's size must be positive, got " + size);
    }
    this.input = input;
    this.size = size;
  }

  public DataStream<T> reduce(ReduceFunction<T> function) {
    return input.then(new OperatorSpec.CountWindow(size, function, null, null));
  }

  public <A, R> DataStream<R> aggregate(AggregateFunction<T, A, R> function) {
    return input.then(new OperatorSpec.CountWindow(size, null, function, null));
  }

  /** Hands the window's {@code size} records, in arrival order, to {@code function}. */
  public <R> DataStream<R> process(ProcessWindowFunction<T, R, K, GlobalWindow> function) {
    return input.then(new OperatorSpec.CountWindow(size, null, null, function));
  }

  /** Reduces each window incrementally; {@code function} gets the one reduced record. */
  public <R> DataStream<R> reduce(
      ReduceFunction<T> reduce, ProcessWindowFunction<T, R, K, GlobalWindow> function) {
    return input.then(new OperatorSpec.CountWindow(size, reduce, null, function));
  }

  /** Aggregates each window incrementally; {@code function} gets the aggregate's one result. */
  public <A, V, R> DataStream<R> aggregate(
      AggregateFunction<T, A, V> aggregate, ProcessWindowFunction<V, R, K, GlobalWindow> function) {
    return input.then(new OperatorSpec.CountWindow(size, null, aggregate, function));
  }
}
