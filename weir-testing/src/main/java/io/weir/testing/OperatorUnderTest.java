package io.weir.testing;

import io.weir.api.functions.KeySelector;
import io.weir.runtime.operators.OperatorSetup;
import io.weir.runtime.operators.Output;
import io.weir.runtime.operators.StreamOperator;

/**
 * The operator a harness drives, and how to make a new instance of it for a subtask.
 *
 * @param keySelector the key of the operator's input when it follows a keyBy, else null
 * @param maker makes one instance; called for every start and every restore
 */
record OperatorUnderTest(
    String uid, String name, KeySelector<?, ?> keySelector, int maxParallelism, Maker maker) {

  /** Makes one runtime operator instance, as a task deploying the operator does. */
  @FunctionalInterface
  interface Maker {
    StreamOperator make(OperatorSetup setup, Output output);
  }

  boolean isKeyed() {
    return keySelector != null;
  }
}
