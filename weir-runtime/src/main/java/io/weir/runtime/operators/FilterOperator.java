package io.weir.runtime.operators;

import io.weir.api.functions.FilterFunction;

/** Keeps the records a {@link FilterFunction} accepts. */
public final class FilterOperator extends AbstractStreamOperator<FilterFunction<Object>> {
  public FilterOperator(OperatorSetup setup, FilterFunction<Object> function, Output output) {
    super(setup, function, output);
  }

  @Override
  public void processElement(Object record, long timestamp) throws Exception {
    recordsIn++;
    setKeyContextForFunction(record);
    if (function.filter(record)) {
      output.collect(record, timestamp);
    }
  }
}
