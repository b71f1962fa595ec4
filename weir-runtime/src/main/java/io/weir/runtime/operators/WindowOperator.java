package io.weir.runtime.operators;

import io.weir.api.functions.Function;
import io.weir.api.graph.OperatorSpec;

/** Keyed windows; placeholder until the window operator lands. */
public final class WindowOperator extends AbstractStreamOperator<Function> {
  public WindowOperator(OperatorSetup setup, OperatorSpec.Window spec, Output output) {
    super(setup, new Function() {}, output);
    throw new UnsupportedOperationException("Windows are not supported yet");
  }

  @Override
  public void processElement(Object record, long timestamp) {}
}
