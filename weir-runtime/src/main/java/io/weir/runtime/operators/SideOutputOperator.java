package io.weir.runtime.operators;

import io.weir.api.functions.Function;
import io.weir.api.functions.OutputTag;

/**
 * Forwards the records its input emitted to one side output. The tag is matched where the input's
 * output is routed; this operator only passes them on.
 */
public final class SideOutputOperator extends AbstractStreamOperator<Function> {
  private final OutputTag<?> tag;

  public SideOutputOperator(OperatorSetup setup, OutputTag<?> tag, Output output) {
    super(setup, new Function() {}, output);
    this.tag = tag;
  }

  public OutputTag<?> tag() {
    return tag;
  }

  @Override
  public void processElement(Object record, long timestamp) throws Exception {
    recordsIn++;
    output.collect(record, timestamp);
  }
}
