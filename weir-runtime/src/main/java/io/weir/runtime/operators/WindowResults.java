package io.weir.runtime.operators;

import io.weir.api.functions.Collector;
import io.weir.api.functions.OutputTag;
import io.weir.api.functions.ProcessWindowFunction;
import io.weir.api.windowing.Window;
import java.util.function.LongSupplier;

/**
 * Emits what a firing window comes to: its accumulator's results as they are, or what the process
 * window function makes of them with the key and the window. One per operator, on the task thread;
 * every record it emits carries the window's {@link Window#maxTimestamp()}.
 */
final class WindowResults implements ProcessWindowFunction.Context<Window> {
  private final ProcessWindowFunction<Object, Object, Object, Window> function;
  private final Output output;
  private final LongSupplier watermark;
  private final LongSupplier processingTime;
  private final Collector<Object> collector = this::collect;
  private Window window;

  /**
   * @param function the process window function, or null to emit the results as they are
   */
  @SuppressWarnings("unchecked")
  WindowResults(
      ProcessWindowFunction<?, ?, ?, ?> function,
      Output output,
      LongSupplier watermark,
      LongSupplier processingTime) {
    this.function = (ProcessWindowFunction<Object, Object, Object, Window>) function;
    this.output = output;
    this.watermark = watermark;
    this.processingTime = processingTime;
  }

  /** Emits the firing of {@code window} of {@code key} whose results are {@code results}. */
  void emit(Object key, Window window, Iterable<Object> results) throws Exception {
    this.window = window;
    if (function == null) {
      for (Object result : results) {
        output.collect(result, window.maxTimestamp());
      }
    } else {
      function.process(key, this, results, collector);
    }
  }

  private void collect(Object record) {
    try {
      output.collect(record, window.maxTimestamp());
    } catch (Exception e) {
      throw OperatorException.unchecked(e);
    }
  }

  @Override
  public Window window() {
    return window;
  }

  @Override
  public long currentWatermark() {
    return watermark.getAsLong();
  }

  @Override
  public long currentProcessingTime() {
    return processingTime.getAsLong();
  }

  @Override
  public <X> void output(OutputTag<X> tag, X value) {
    try {
      output.collectSide(tag, value, window.maxTimestamp());
    } catch (Exception e) {
      throw OperatorException.unchecked(e);
    }
  }
}
