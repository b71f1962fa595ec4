package io.weir.api.datastream;

import io.weir.api.annotation.Public;
import io.weir.api.functions.AggregateFunction;
import io.weir.api.functions.OutputTag;
import io.weir.api.functions.ProcessWindowFunction;
import io.weir.api.functions.ReduceFunction;
import io.weir.api.graph.OperatorSpec;
import io.weir.api.windowing.TimeWindow;
import io.weir.api.windowing.WindowAssigner;
import java.time.Duration;

/**
 * A keyed stream cut into time windows; {@link #reduce}, {@link #aggregate} or {@link #process}
 * makes it a stream.
 */
@Public
public final class WindowedStream<T, K> {
  private final KeyedStream<T, K> input;
  private final WindowAssigner<? super T> assigner;
  private long allowedLatenessMillis;
  private OutputTag<T> lateOutput;

  WindowedStream(KeyedStream<T, K> input, WindowAssigner<? super T> assigner) {
    this.input = input;
    this.assigner = assigner;
  }

  /** Keeps a window's state this long after its end, re-emitting it for each late record. */
  public WindowedStream<T, K> allowedLateness(Duration lateness) {
    this.allowedLatenessMillis = lateness.toMillis();
    return this;
  }

  /** Sends records too late for any window here instead of dropping them. */
  public WindowedStream<T, K> sideOutputLateData(OutputTag<T> tag) {
    this.lateOutput = tag;
    return this;
  }

  public DataStream<T> reduce(ReduceFunction<T> function) {
    return window(function, null, null);
  }

  public <A, R> DataStream<R> aggregate(AggregateFunction<T, A, R> function) {
    return window(null, function, null);
  }

  /**
   * Keeps every record of each window in keyed state and hands them, with the key and the window,
   * to {@code function} when the window fires.
   */
  public <R> DataStream<R> process(ProcessWindowFunction<T, R, K, TimeWindow> function) {
    return window(null, null, function);
  }

  /** Reduces each window incrementally; {@code function} gets the one reduced record. */
  public <R> DataStream<R> reduce(
      ReduceFunction<T> reduce, ProcessWindowFunction<T, R, K, TimeWindow> function) {
    return window(reduce, null, function);
  }

  /** Aggregates each window incrementally; {@code function} gets the aggregate's one result. */
  public <A, V, R> DataStream<R> aggregate(
      AggregateFunction<T, A, V> aggregate, ProcessWindowFunction<V, R, K, TimeWindow> function) {
    return window(null, aggregate, function);
  }

  private <R> DataStream<R> window(
      ReduceFunction<T> reduce,
      AggregateFunction<T, ?, ?> aggregate,
      ProcessWindowFunction<?, ?, K, TimeWindow> function) {
    return input.then(
        new OperatorSpec.Window(
            assigner, reduce, aggregate, function, allowedLatenessMillis, lateOutput));
  }
}
