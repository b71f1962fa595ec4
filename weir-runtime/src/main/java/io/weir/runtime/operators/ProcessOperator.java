package io.weir.runtime.operators;

import io.weir.api.functions.OutputTag;
import io.weir.api.functions.ProcessFunction;

/** Runs a {@link ProcessFunction}. */
public final class ProcessOperator extends AbstractStreamOperator<ProcessFunction<Object, Object>>
    implements ProcessFunction.Context {
  private final TimestampedCollector collector = new TimestampedCollector(output);
  private long currentWatermark = Long.MIN_VALUE;

  public ProcessOperator(
      OperatorSetup setup, ProcessFunction<Object, Object> function, Output output) {
    super(setup, function, output);
  }

  @Override
  public void processElement(Object record, long timestamp) throws Exception {
    recordsIn++;
    setKeyContext(record);
    collector.setTimestamp(timestamp);
    function.processElement(record, this, collector);
  }

  @Override
  public void processWatermark(long watermark) throws Exception {
    currentWatermark = watermark;
    super.processWatermark(watermark);
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
