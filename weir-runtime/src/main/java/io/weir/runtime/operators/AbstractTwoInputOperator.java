package io.weir.runtime.operators;

import io.weir.api.functions.KeySelector;

/**
 * The lifecycle of {@link AbstractStreamOperator} for an operator with two inputs: the first input
 * is keyed by the setup's key selector, the second by its own.
 */
abstract class AbstractTwoInputOperator<F> extends AbstractStreamOperator<F>
    implements TwoInputStreamOperator {
  private final KeySelector<Object, Object> secondKey;

  @SuppressWarnings("unchecked")
  AbstractTwoInputOperator(
      OperatorSetup setup, F function, KeySelector<?, ?> secondKey, Output output) {
    super(setup, function, output);
    if (setup.isKeyed() != (secondKey != null)) {
      throw new IllegalArgumentException(
          setup.describe() + " needs both inputs keyed or neither: connect two keyed streams");
    }
    this.secondKey = (KeySelector<Object, Object>) secondKey;
  }

  /** Makes the second input's record's key the current key; a no-op when not keyed. */
  protected final void setSecondKeyContext(Object record) throws Exception {
    setKeyContext(record, secondKey);
  }

  /** As {@link #setSecondKeyContext}, only when the function can read keyed state. */
  protected final void setSecondKeyContextForFunction(Object record) throws Exception {
    setKeyContextForFunction(record, secondKey);
  }
}
