package io.weir.runtime.operators;

import io.weir.api.functions.CoFlatMapFunction;
import io.weir.api.functions.KeySelector;

/** Applies a {@link CoFlatMapFunction}; emitted records keep the input's timestamp. */
public final class CoFlatMapOperator
    extends AbstractTwoInputOperator<CoFlatMapFunction<Object, Object, Object>> {
  private final TimestampedCollector collector = new TimestampedCollector(output);

  public CoFlatMapOperator(
      OperatorSetup setup,
      CoFlatMapFunction<Object, Object, Object> function,
      KeySelector<?, ?> secondKey,
      Output output) {
    super(setup, function, secondKey, output);
  }

  @Override
  public void processElement(Object record, long timestamp) throws Exception {
    recordsIn++;
    setKeyContextForFunction(record);
    collector.setTimestamp(timestamp);
    function.flatMap1(record, collector);
  }

  @Override
  public void processElement2(Object record, long timestamp) throws Exception {
    recordsIn++;
    setSecondKeyContextForFunction(record);
    collector.setTimestamp(timestamp);
    function.flatMap2(record, collector);
  }
}
