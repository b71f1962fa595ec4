package io.weir.runtime.operators;

import io.weir.api.functions.Function;
import io.weir.api.graph.OperatorSpec;
import io.weir.api.windowing.GlobalWindow;
import io.weir.runtime.operators.window.WindowAccumulator;
import io.weir.runtime.state.KeyedTable;
import java.io.Serializable;

/**
 * Count windows per key, as Flink's {@code countWindow(size)} (a global window with a purging count
 * trigger): each key's records are folded into one state with how many it holds; the record that
 * makes it {@code size} fires the window and clears it. The state is one keyed table, so it is
 * checkpointed and rescaled by key group; there are no timers, and records left in a window at the
 * end of input do not fire.
 */
public final class CountWindowOperator extends AbstractStreamOperator<Function> {
  private static final String CONTENTS_STATE = "count-window-contents";

  /** A key's open window: how many records it holds and what they fold to. */
  private record Contents(long count, Object accumulated) implements Serializable {}

  private final long size;
  private final WindowAccumulator accumulator;
  private final OperatorSpec.CountWindow spec;
  private KeyedTable contents;
  private WindowResults results;
  private long currentWatermark = Long.MIN_VALUE;

  public CountWindowOperator(OperatorSetup setup, OperatorSpec.CountWindow spec, Output output) {
    super(setup, userFunction(spec), output);
    this.size = spec.size();
    this.accumulator = WindowAccumulator.of(spec.reduce(), spec.aggregate());
    this.spec = spec;
  }

  private static Function userFunction(OperatorSpec.CountWindow spec) {
    if (spec.windowFunction() != null) {
      return spec.windowFunction();
    }
    return spec.reduce() != null ? spec.reduce() : spec.aggregate();
  }

  @Override
  public void initializeState() throws Exception {
    super.initializeState();
    if (keyedState == null) {
      throw new IllegalStateException(
          "Count windows need a keyed stream: call keyBy before countWindow for "
              + setup.describe());
    }
    contents = keyedState.table(CONTENTS_STATE);
    results =
        new WindowResults(
            spec.windowFunction(),
            output,
            () -> currentWatermark,
            () -> setup.timeService().currentTime());
  }

  @Override
  public void processElement(Object record, long timestamp) throws Exception {
    recordsIn++;
    setKeyContext(record);
    Contents window = (Contents) contents.get();
    Object accumulated = accumulator.add(window == null ? null : window.accumulated(), record);
    long count = window == null ? 1 : window.count() + 1;
    if (count < size) {
      contents.put(new Contents(count, accumulated));
      return;
    }
    contents.put(null);
    results.emit(keyedState.currentKey(), GlobalWindow.get(), accumulator.results(accumulated));
  }

  @Override
  public void processWatermark(long watermark) throws Exception {
    currentWatermark = watermark;
    super.processWatermark(watermark);
  }
}
