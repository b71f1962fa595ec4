package io.weir.runtime.operators;

import io.weir.api.functions.CoProcessFunction;
import io.weir.api.functions.KeySelector;

/** Runs a {@link CoProcessFunction}. */
public final class CoProcessOperator
    extends AbstractTwoInputOperator<CoProcessFunction<Object, Object, Object>> {
  private final TimestampedCollector collector = new TimestampedCollector(output);
  private final ProcessFunctionContext context = new ProcessFunctionContext(collector);

  public CoProcessOperator(
      OperatorSetup setup,
      CoProcessFunction<Object, Object, Object> function,
      KeySelector<?, ?> secondKey,
      Output output) {
    super(setup, function, secondKey, output);
  }

  @Override
  public void processElement(Object record, long timestamp) throws Exception {
    recordsIn++;
    setKeyContext(record);
    collector.setTimestamp(timestamp);
    function.processElement1(record, context, collector);
  }

  @Override
  public void processElement2(Object record, long timestamp) throws Exception {
    recordsIn++;
    setSecondKeyContext(record);
    collector.setTimestamp(timestamp);
    function.processElement2(record, context, collector);
  }

  @Override
  public void processWatermark(long watermark) throws Exception {
    context.advanceWatermark(watermark);
    super.processWatermark(watermark);
  }
}
