package io.weir.runtime.operators;

import io.weir.api.functions.KeyedProcessFunction;

/** Runs a {@link KeyedProcessFunction} with keyed state and timers. */
public final class KeyedProcessOperator
    extends AbstractStreamOperator<KeyedProcessFunction<Object, Object, Object>> {
  private final TimestampedCollector collector = new TimestampedCollector(output);
  private KeyedFunctionContext context;

  public KeyedProcessOperator(
      OperatorSetup setup, KeyedProcessFunction<Object, Object, Object> function, Output output) {
    super(setup, function, output);
  }

  @Override
  public void initializeState() throws Exception {
    super.initializeState();
    context =
        new KeyedFunctionContext(
            collector,
            keyedState,
            setup.timeService(),
            time -> function.onTimer(time, context, collector));
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
