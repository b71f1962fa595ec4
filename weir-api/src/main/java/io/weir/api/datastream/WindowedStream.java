package io.weir.api.datastream;

import io.weir.api.annotation.Public;
import io.weir.api.functions.AggregateFunction;
import io.weir.api.functions.OutputTag;
import io.weir.api.functions.ReduceFunction;
import io.weir.api.graph.OperatorSpec;
import io.weir.api.windowing.WindowAssigner;
import java.time.Duration;

/** A keyed stream cut into windows; {@link #reduce} or {@link #aggregate} makes it a stream. */
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
    return input.then(
        new OperatorSpec.Window(assigner, function, null, allowedLatenessMillis, lateOutput));
  }

  public <A, R> DataStream<R> aggregate(AggregateFunction<T, A, R> function) {
    return input.then(
        new OperatorSpec.Window(assigner, null, function, allowedLatenessMillis, lateOutput));
  }
}
