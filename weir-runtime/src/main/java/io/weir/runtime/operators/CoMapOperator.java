package io.weir.runtime.operators;

import io.weir.api.functions.CoMapFunction;
import io.weir.api.functions.KeySelector;

/** Applies a {@link CoMapFunction}; each output keeps its input's timestamp. */
public final class CoMapOperator
    extends AbstractTwoInputOperator<CoMapFunction<Object, Object, Object>> {
  public CoMapOperator(
      OperatorSetup setup,
      CoMapFunction<Object, Object, Object> function,
      KeySelector<?, ?> secondKey,
      Output output) {
    super(setup, function, secondKey, output);
  }

  @Override
  public void processElement(Object record, long timestamp) throws Exception {
    recordsIn++;
    setKeyContextForFunction(record);
    output.collect(function.map1(record), timestamp);
  }

  @Override
  public void processElement2(Object record, long timestamp) throws Exception {
    recordsIn++;
    setSecondKeyContextForFunction(record);
    output.collect(function.map2(record), timestamp);
  }
}
