package io.weir.testing;

import io.weir.api.functions.KeySelector;
import io.weir.api.state.StateBackend;

/**
 * Configures a {@link TwoInputOperatorTestHarness} before it opens; the same defaults as {@link
 * OperatorHarnessBuilder}.
 */
public final class TwoInputHarnessBuilder<IN1, IN2, OUT> {
  private final OperatorHarnessBuilder<IN1, OUT> builder;
  private final KeySelector<Object, ?> secondKey;

  @SuppressWarnings("unchecked")
  TwoInputHarnessBuilder(OperatorHarnessBuilder<IN1, OUT> builder, KeySelector<IN2, ?> secondKey) {
    this.builder = builder;
    this.secondKey = (KeySelector<Object, ?>) secondKey;
  }

  public TwoInputHarnessBuilder<IN1, IN2, OUT> name(String operatorName) {
    builder.name(operatorName);
    return this;
  }

  public TwoInputHarnessBuilder<IN1, IN2, OUT> parallelism(int subtasks) {
    builder.parallelism(subtasks);
    return this;
  }

  public TwoInputHarnessBuilder<IN1, IN2, OUT> maxParallelism(int keyGroups) {
    builder.maxParallelism(keyGroups);
    return this;
  }

  public TwoInputHarnessBuilder<IN1, IN2, OUT> processingTime(long start) {
    builder.processingTime(start);
    return this;
  }

  /** See {@link OperatorHarnessBuilder#stateBackend}. */
  public TwoInputHarnessBuilder<IN1, IN2, OUT> stateBackend(StateBackend backend) {
    builder.stateBackend(backend);
    return this;
  }

  /** See {@link OperatorHarnessBuilder#restoreAfterEveryInput()}. */
  public TwoInputHarnessBuilder<IN1, IN2, OUT> restoreAfterEveryInput() {
    builder.restoreAfterEveryInput();
    return this;
  }

  /** Initializes and opens every subtask's instance. */
  public TwoInputOperatorTestHarness<IN1, IN2, OUT> open() throws Exception {
    return new TwoInputOperatorTestHarness<>(builder.open(), secondKey);
  }
}
