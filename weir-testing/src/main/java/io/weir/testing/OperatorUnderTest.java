package io.weir.testing;

import io.weir.api.functions.KeySelector;
import io.weir.runtime.operators.OperatorSetup;
import io.weir.runtime.operators.Output;
import io.weir.runtime.operators.StreamOperator;
import io.weir.runtime.state.KeyedStateBackends;

/**
 * The operator a harness drives, and how to make a new instance of it for a subtask.
 *
 * @param keySelector the key of the operator's input when it follows a keyBy, else null
 * @param maker makes one instance; called for every start and every restore
 * @param recovery what the job does for this operator before a restore deploys its subtasks
 * @param keyedStateBackends where a keyed operator's state lives
 */
record OperatorUnderTest(
    String uid,
    String name,
    KeySelector<?, ?> keySelector,
    int maxParallelism,
    Maker maker,
    Recovery recovery,
    KeyedStateBackends keyedStateBackends) {

  /** Makes one runtime operator instance, as a task deploying the operator does. */
  @FunctionalInterface
  interface Maker {
    StreamOperator make(OperatorSetup setup, Output output);
  }

  /**
   * The job-level step before the subtasks of a restore are deployed: for a two-phase-commit sink,
   * settling every transaction the snapshot records, as the runtime does before a job's tasks
   * start.
   */
  @FunctionalInterface
  interface Recovery {
    Recovery NONE = (name, snapshot) -> {};

    void recover(String name, OperatorSnapshot snapshot) throws Exception;
  }

  boolean isKeyed() {
    return keySelector != null;
  }
}
