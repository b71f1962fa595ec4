package io.weir.runtime.operators;

import io.weir.api.functions.ReduceFunction;
import io.weir.api.state.ValueState;
import io.weir.api.state.ValueStateDescriptor;

/** A running reduce per key: emits the key's new accumulated value for every record. */
public final class ReduceOperator extends AbstractStreamOperator<ReduceFunction<Object>> {
  private ValueState<Object> accumulated;

  public ReduceOperator(OperatorSetup setup, ReduceFunction<Object> function, Output output) {
    super(setup, function, output);
  }

  @Override
  public void initializeState() throws Exception {
    super.initializeState();
    accumulated = keyedState.getState(new ValueStateDescriptor<>("reduce"));
  }

  @Override
  public void processElement(Object record, long timestamp) throws Exception {
    recordsIn++;
    setKeyContext(record);
    Object current = accumulated.value();
    Object next = current == null ? record : function.reduce(current, record);
    accumulated.update(next);
    output.collect(next, timestamp);
  }
}
