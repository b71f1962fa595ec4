package io.weir.runtime.operators;

import io.weir.api.functions.CoProcessFunction;
import io.weir.api.functions.OutputTag;
import io.weir.api.functions.ProcessFunction;

/**
 * What a process function without timers sees of its operator, shared by {@link ProcessOperator}
 * and {@link CoProcessOperator}: the current record's timestamp, the operator's last watermark, and
 * side outputs. Used only on the task thread.
 */
final class ProcessFunctionContext implements ProcessFunction.Context, CoProcessFunction.Context {
  private final TimestampedCollector collector;
  private long currentWatermark = Long.MIN_VALUE;

  ProcessFunctionContext(TimestampedCollector collector) {
    this.collector = collector;
  }

  void advanceWatermark(long watermark) {
    currentWatermark = watermark;
  }

  @Override
  public long timestamp() {
    return collector.timestamp();
  }

  @Override
  public long currentWatermark() {
    return currentWatermark;
  }

  @Override
  public <X> void output(OutputTag<X> tag, X value) {
    collector.collectSide(tag, value);
  }
}
