package io.weir.runtime.operators;

import io.weir.api.functions.ProcessFunction;

/** Runs a {@link ProcessFunction}. */
public final class ProcessOperator extends AbstractStreamOperator<ProcessFunction<Object, Object>> {
  private final TimestampedCollector collector = new TimestampedCollector(output);
  private final ProcessFunctionContext context = new ProcessFunctionContext(collector);

  public ProcessOperator(
      OperatorSetup setup, ProcessFunction<Object, Object> function, Output output) {
    super(setup, function, output);
  }

  @Override
  public void processElement(Object record, long timestamp) throws Exception {
    recordsIn++;
    setKeyContext(record);
    collector.setTimestamp(timestamp);
    function.processElement(record, context, collector);
  }

  @Override
  public void processWatermark(long watermark) throws Exception {
    context.advanceWatermark(watermark);
    super.processWatermark(watermark);
  }
}
