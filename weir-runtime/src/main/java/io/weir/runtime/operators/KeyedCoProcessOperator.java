package io.weir.runtime.operators;

import io.weir.api.functions.KeySelector;
import io.weir.api.functions.KeyedCoProcessFunction;

/**
 * Runs a {@link KeyedCoProcessFunction}: a record of either input sets its key as the current key,
 * so both inputs share the keyed state and timers of a key.
 */
public final class KeyedCoProcessOperator
    extends AbstractTwoInputOperator<KeyedCoProcessFunction<Object, Object, Object, Object>> {
  private final TimestampedCollector collector = new TimestampedCollector(output);
  private KeyedFunctionContext context;

  public KeyedCoProcessOperator(
      OperatorSetup setup,
      KeyedCoProcessFunction<Object, Object, Object, Object> function,
      KeySelector<?, ?> secondKey,
      Output output) {
    super(setup, function, secondKey, output);
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
