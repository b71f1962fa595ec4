package io.weir.testing;

import io.weir.api.checkpoint.CommitObserver;
import io.weir.api.functions.KeySelector;
import io.weir.api.state.StateBackend;
import io.weir.runtime.state.KeyedStateBackends;
import java.util.Optional;

/**
 * Configures an {@link OperatorTestHarness} before it opens. Defaults: parallelism 1, max
 * parallelism 128 (the runtime's default), processing time 0, not keyed unless the factory took a
 * key selector.
 *
 * @param <IN> the records the operator takes
 * @param <OUT> the records it emits
 */
public final class OperatorHarnessBuilder<IN, OUT> {
  private final String kind;
  private final OperatorUnderTest.Maker maker;
  private final OperatorUnderTest.Recovery recovery;
  private final boolean canRestoreEveryInput;
  private KeySelector<IN, ?> keySelector;
  private String name;
  private int parallelism = 1;
  private int maxParallelism = 128;
  private long processingTime;
  private boolean restoreEveryInput;
  private CommitObserver commitObserver = CommitObserver.NONE;
  private KeyedStateBackends keyedStateBackends = KeyedStateBackends.heap();

  OperatorHarnessBuilder(
      String kind,
      KeySelector<IN, ?> keySelector,
      OperatorUnderTest.Maker maker,
      OperatorUnderTest.Recovery recovery,
      boolean canRestoreEveryInput) {
    this.kind = kind;
    this.recovery = recovery;
    this.name = kind;
    this.keySelector = keySelector;
    this.maker = maker;
    this.canRestoreEveryInput = canRestoreEveryInput;
  }

  /** Runs the operator after a keyBy on this key: keyed state is available, records go by key. */
  public OperatorHarnessBuilder<IN, OUT> keyBy(KeySelector<IN, ?> key) {
    this.keySelector = key;
    return this;
  }

  /** The operator's name, as errors and {@code RuntimeContext.operatorName()} show it. */
  public OperatorHarnessBuilder<IN, OUT> name(String operatorName) {
    this.name = operatorName;
    return this;
  }

  public OperatorHarnessBuilder<IN, OUT> parallelism(int subtasks) {
    this.parallelism = subtasks;
    return this;
  }

  /** The number of key groups; a restore keeps it, as the runtime requires. */
  public OperatorHarnessBuilder<IN, OUT> maxParallelism(int keyGroups) {
    this.maxParallelism = keyGroups;
    return this;
  }

  /** Processing time when the harness opens. */
  public OperatorHarnessBuilder<IN, OUT> processingTime(long start) {
    this.processingTime = start;
    return this;
  }

  /**
   * Snapshots and restores the operator after every record, watermark, time step and notification,
   * and throws an {@link AssertionError} as soon as what it emitted differs from a copy that is
   * never restored. Not for sinks: their output is an external system, which two copies would both
   * write to; drive sinks through {@link SinkCrashMatrix}.
   */
  public OperatorHarnessBuilder<IN, OUT> restoreAfterEveryInput() {
    if (!canRestoreEveryInput) {
      throw new IllegalStateException(
          "restoreAfterEveryInput compares emitted records; a sink emits none, use SinkCrashMatrix");
    }
    this.restoreEveryInput = true;
    return this;
  }

  /**
   * Where keyed state lives, as {@code StreamEnvironment.setStateBackend} sets it for a job: the
   * heap by default, or {@code StateBackends.rocksdb()} with the weir-rocksdb module on the class
   * path (its snapshot files then go to a directory of the process's own).
   */
  public OperatorHarnessBuilder<IN, OUT> stateBackend(StateBackend backend) {
    this.keyedStateBackends =
        KeyedStateBackends.forJob(backend, "test-job", checkpointId -> Optional.empty());
    return this;
  }

  /** What every instance reports the commits of a two-phase-commit sink to. */
  OperatorHarnessBuilder<IN, OUT> commitObserver(CommitObserver observer) {
    this.commitObserver = observer;
    return this;
  }

  /** Initializes and opens every subtask's instance. */
  public OperatorTestHarness<IN, OUT> open() throws Exception {
    if (parallelism < 1 || parallelism > maxParallelism) {
      throw new IllegalArgumentException(
          "parallelism " + parallelism + " is outside 1.." + maxParallelism);
    }
    String uid = kind.toLowerCase(java.util.Locale.ROOT).replace(' ', '-') + "-under-test";
    OperatorUnderTest operator =
        new OperatorUnderTest(
            uid, name, keySelector, maxParallelism, maker, recovery, keyedStateBackends);
    return new OperatorTestHarness<>(
        operator, parallelism, processingTime, restoreEveryInput, commitObserver);
  }
}
