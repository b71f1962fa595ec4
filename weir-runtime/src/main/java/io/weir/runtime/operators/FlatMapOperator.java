package io.weir.runtime.operators;

import io.weir.api.functions.Collector;
import io.weir.api.functions.FlatMapFunction;

/** Applies a {@link FlatMapFunction}; emitted records keep the input's timestamp. */
public final class FlatMapOperator extends AbstractStreamOperator<FlatMapFunction<Object, Object>>
    implements Collector<Object> {
  private long timestamp;

  public FlatMapOperator(
      OperatorSetup setup, FlatMapFunction<Object, Object> function, Output output) {
    super(setup, function, output);
  }

  @Override
  public void processElement(Object record, long timestamp) throws Exception {
    recordsIn++;
    setKeyContext(record);
    this.timestamp = timestamp;
    function.flatMap(record, this);
  }

  @Override
  public void collect(Object record) {
    try {
      output.collect(record, timestamp);
    } catch (RuntimeException e) {
      throw e;
    } catch (Exception e) {
      throw new OperatorException(e);
    }
  }
}
