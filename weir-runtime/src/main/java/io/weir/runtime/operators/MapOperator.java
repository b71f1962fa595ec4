package io.weir.runtime.operators;

import io.weir.api.functions.MapFunction;

/** Applies a {@link MapFunction}; on a keyed stream with the record's key as current key. */
public final class MapOperator extends AbstractStreamOperator<MapFunction<Object, Object>> {
  public MapOperator(OperatorSetup setup, MapFunction<Object, Object> function, Output output) {
    super(setup, function, output);
  }

  @Override
  public void processElement(Object record, long timestamp) throws Exception {
    recordsIn++;
    setKeyContextForFunction(record);
    output.collect(function.map(record), timestamp);
  }
}
