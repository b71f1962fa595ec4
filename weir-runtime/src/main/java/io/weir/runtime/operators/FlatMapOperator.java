package io.weir.runtime.operators;

import io.weir.api.functions.FlatMapFunction;

/** Applies a {@link FlatMapFunction}; emitted records keep the input's timestamp. */
public final class FlatMapOperator extends AbstractStreamOperator<FlatMapFunction<Object, Object>> {
  private final TimestampedCollector collector = new TimestampedCollector(output);

  public FlatMapOperator(
      OperatorSetup setup, FlatMapFunction<Object, Object> function, Output output) {
    super(setup, function, output);
  }

  @Override
  public void processElement(Object record, long timestamp) throws Exception {
    recordsIn++;
    setKeyContextForFunction(record);
    collector.setTimestamp(timestamp);
    function.flatMap(record, collector);
  }
}
