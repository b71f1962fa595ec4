package io.weir.runtime.operators;

import io.weir.api.functions.CoProcessFunction;
import io.weir.api.functions.KeySelector;
import io.weir.api.functions.OutputTag;

/** Runs a {@link CoProcessFunction}. */
public final class CoProcessOperator
    extends AbstractTwoInputOperator<CoProcessFunction<Object, Object, Object>>
    implements CoProcessFunction.Context {
  private final TimestampedCollector collector = new TimestampedCollector(output);
  private long currentWatermark = Long.MIN_VALUE;

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
    function.processElement1(record, this, collector);
  }

  @Override
  public void processElement2(Object record, long timestamp) throws Exception {
    recordsIn++;
    setSecondKeyContext(record);
    collector.setTimestamp(timestamp);
    function.processElement2(record, this, collector);
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
