package io.weir.testing;

import io.weir.api.checkpoint.CommitObserver;
import io.weir.api.functions.KeySelector;
import io.weir.api.functions.OutputTag;
import io.weir.runtime.state.KeyGroups;
import java.util.List;

/**
 * Drives one operator of a job (a user's function inside the runtime's own operator, with the
 * runtime's keyed and operator state, timers and state assignment) on the test's thread: push
 * records and watermarks, move processing time, read what it emitted, snapshot, crash, restore —
 * also at another parallelism. Make one with the factories of {@link OperatorHarnesses}.
 *
 * <pre>{@code
 * OperatorTestHarness<String, String> harness =
 *     OperatorHarnesses.forMap(SeedRecords::incrementFrequency).keyBy(SeedRecords::word).open();
 * harness.processElement("1,apple,4");
 * assertThat(harness.output()).containsExactly("1,apple,5");
 * }</pre>
 *
 * <p>The operator runs at the builder's parallelism, every subtask in this harness: a record goes
 * to the subtask of its key's key group after a keyBy, otherwise to the subtasks in turn (as after
 * a rebalance); a watermark goes to every subtask. Each subtask gets its own copy of the user's
 * function, serialized as a shipped job's would be, so a function that cannot be serialized fails
 * here as it would on a cluster.
 *
 * <p>Not thread-safe: call it from one thread, as a task calls its operators. {@link
 * OperatorHarnessBuilder#restoreAfterEveryInput()} turns on the mode that snapshots and restores
 * after every input and fails with an {@link AssertionError} as soon as the output differs from a
 * run without restores.
 *
 * @param <IN> the records the operator takes
 * @param <OUT> the records it emits
 */
public final class OperatorTestHarness<IN, OUT> implements AutoCloseable {
  private final OperatorUnderTest operator;
  private final ManualClock clock;
  private final EmittedRecords output = new EmittedRecords();
  private final EveryInputRestoreCheck check;
  private OperatorRun run;
  private final CommitObserver commitObserver;
  private long nextCheckpointId = 1;
  private int attempt;
  private int nextSubtask;

  OperatorTestHarness(
      OperatorUnderTest operator,
      int parallelism,
      long processingTime,
      boolean restoreEveryInput,
      CommitObserver commitObserver)
      throws Exception {
    this.operator = operator;
    this.commitObserver = commitObserver;
    this.clock = new ManualClock(processingTime);
    this.run = new OperatorRun(operator, clock, output, parallelism, null, attempt, commitObserver);
    this.check =
        restoreEveryInput ? new EveryInputRestoreCheck(operator, clock, parallelism) : null;
  }

  /** Processes a record without a timestamp. */
  public OperatorTestHarness<IN, OUT> processElement(IN record) throws Exception {
    return processElement(record, Long.MIN_VALUE);
  }

  /** Processes a record with its event-time timestamp, in the subtask it belongs to. */
  public OperatorTestHarness<IN, OUT> processElement(IN record, long timestamp) throws Exception {
    return processElementInSubtask(subtaskOf(record), record, timestamp);
  }

  /** Processes a record in the given subtask, whatever its key. */
  public OperatorTestHarness<IN, OUT> processElementInSubtask(
      int subtask, IN record, long timestamp) throws Exception {
    if (subtask < 0 || subtask >= run.parallelism()) {
      throw new IllegalArgumentException(
          "subtask " + subtask + " is outside 0.." + (run.parallelism() - 1));
    }
    apply(target -> target.processElement(subtask, record, timestamp), "record " + record);
    return this;
  }

  /**
   * Processes a record of the second input of a two-input operator, in the subtask of its key by
   * {@code secondKey} (null when not keyed: the subtasks in turn).
   */
  OperatorTestHarness<IN, OUT> processSecondElement(
      Object record, long timestamp, KeySelector<Object, ?> secondKey) throws Exception {
    int subtask = subtaskOf(record, secondKey);
    apply(target -> target.processElement2(subtask, record, timestamp), "second input " + record);
    return this;
  }

  /** Processes a record of the second input in every subtask, as after a broadcast. */
  OperatorTestHarness<IN, OUT> processSecondElementInEverySubtask(Object record, long timestamp)
      throws Exception {
    apply(
        target -> {
          for (int subtask = 0; subtask < target.parallelism(); subtask++) {
            target.processElement2(subtask, record, timestamp);
          }
        },
        "broadcast " + record);
    return this;
  }

  /** Gives every subtask the watermark; event-time timers and windows up to it fire. */
  public OperatorTestHarness<IN, OUT> processWatermark(long watermark) throws Exception {
    apply(target -> target.processWatermark(watermark), "watermark " + watermark);
    return this;
  }

  /** Moves processing time to {@code time}; processing-time timers due by then fire, in order. */
  public OperatorTestHarness<IN, OUT> setProcessingTime(long time) throws Exception {
    clock.moveTo(time);
    apply(OperatorRun::fireProcessingTimers, "processing time " + time);
    return this;
  }

  /** Tells every subtask that no more input comes, as at the end of a bounded job. */
  public OperatorTestHarness<IN, OUT> endInput() throws Exception {
    apply(OperatorRun::endInput, "end of input");
    return this;
  }

  /**
   * Snapshots every subtask under the next checkpoint id, as at a barrier. Two-phase-commit sinks
   * pre-commit here.
   */
  public OperatorSnapshot snapshot() throws Exception {
    long checkpointId = nextCheckpointId++;
    if (check != null) {
      check.reference().snapshot(checkpointId, clock.now());
    }
    return run.snapshot(checkpointId, clock.now());
  }

  /** Tells every subtask that the checkpoint completed; two-phase-commit sinks commit here. */
  public void notifyCheckpointComplete(long checkpointId) throws Exception {
    apply(target -> target.notifyCheckpointComplete(checkpointId), "complete " + checkpointId);
  }

  /**
   * Waits until the commits that a sink runs in the background after a notification returned (as a
   * task does before notifying a later listener of its chain), so that what the next call sees does
   * not depend on how fast the external system answered.
   */
  public void awaitCommitsInFlight() throws Exception {
    running().awaitCommitsInFlight();
  }

  /** Tells every subtask that the checkpoint was aborted. */
  public void notifyCheckpointAborted(long checkpointId) throws Exception {
    apply(target -> target.notifyCheckpointAborted(checkpointId), "aborted " + checkpointId);
  }

  /**
   * Drops every instance without closing it, as {@code kill -9} would: nothing is flushed,
   * committed or aborted. Emitted records stay readable. Follow with a restore.
   */
  public void crash() {
    run = null;
  }

  /**
   * New instances of every subtask restored from {@code snapshot} at its parallelism, as after a
   * failover. Running instances are closed first (after a {@link #crash()} there are none).
   */
  public OperatorTestHarness<IN, OUT> restore(OperatorSnapshot snapshot) throws Exception {
    return restore(snapshot, snapshot.parallelism());
  }

  /**
   * New instances of every subtask restored from {@code snapshot} at {@code parallelism}: keyed
   * state moves whole key groups, operator list state is split evenly, union list state goes to
   * every subtask, exactly as the runtime restores a rescaled job.
   */
  public OperatorTestHarness<IN, OUT> restore(OperatorSnapshot snapshot, int parallelism)
      throws Exception {
    return start(snapshot, parallelism);
  }

  /** New instances without state, as a job started afresh; running instances are closed first. */
  public OperatorTestHarness<IN, OUT> startWithoutState(int parallelism) throws Exception {
    return start(null, parallelism);
  }

  /** The records emitted so far by every subtask, in emission order, across restores. */
  @SuppressWarnings("unchecked")
  public List<OUT> output() {
    return output.records().stream().map(record -> (OUT) record.value()).toList();
  }

  /** Like {@link #output()}, with each record's timestamp. */
  @SuppressWarnings("unchecked")
  public List<Timestamped<OUT>> outputWithTimestamps() {
    return output.records().stream()
        .map(record -> (Timestamped<OUT>) (Timestamped<?>) record)
        .toList();
  }

  /** The records emitted to the side output {@code tag} so far. */
  @SuppressWarnings("unchecked")
  public <X> List<X> sideOutput(OutputTag<X> tag) {
    return output.sideOutput(tag).stream().map(record -> (X) record.value()).toList();
  }

  /** The watermarks forwarded so far, one per subtask and watermark. */
  public List<Long> watermarks() {
    return output.watermarks();
  }

  /** Forgets what was emitted so far, e.g. between the given and the then of a test. */
  public void clearOutput() {
    output.clear();
    if (check != null) {
      check.clearReferenceOutput();
    }
  }

  public int parallelism() {
    return running().parallelism();
  }

  public long currentProcessingTime() {
    return clock.now();
  }

  /** Closes every running instance, as a task does when the job ends. */
  @Override
  public void close() throws Exception {
    try {
      if (run != null) {
        run.close();
        run = null;
      }
    } finally {
      if (check != null) {
        check.close();
      }
    }
  }

  private OperatorTestHarness<IN, OUT> start(OperatorSnapshot snapshot, int parallelism)
      throws Exception {
    if (check != null) {
      throw new IllegalStateException(
          "restoreAfterEveryInput restores by itself; crash and restore in a harness without it");
    }
    if (run != null) {
      run.close();
      run = null;
    }
    attempt++;
    nextSubtask = 0;
    run = new OperatorRun(operator, clock, output, parallelism, snapshot, attempt, commitObserver);
    return this;
  }

  @SuppressWarnings("unchecked")
  private int subtaskOf(IN record) throws Exception {
    return subtaskOf(record, (KeySelector<Object, ?>) operator.keySelector());
  }

  private int subtaskOf(Object record, KeySelector<Object, ?> keySelector) throws Exception {
    int parallelism = running().parallelism();
    if (keySelector != null) {
      Object key = keySelector.getKey(record);
      return KeyGroups.subtaskOfKey(key, operator.maxParallelism(), parallelism);
    }
    int subtask = nextSubtask;
    nextSubtask = (nextSubtask + 1) % parallelism;
    return subtask;
  }

  /** One input to the operator, applied alike to the checked run and its reference. */
  @FunctionalInterface
  private interface Input {
    void applyTo(OperatorRun target) throws Exception;
  }

  private void apply(Input input, String description) throws Exception {
    input.applyTo(running());
    if (check != null) {
      input.applyTo(check.reference());
      attempt++;
      run = check.restoreAndCompare(run, clock, output, nextCheckpointId++, attempt, description);
    }
  }

  private OperatorRun running() {
    if (run == null) {
      throw new IllegalStateException("the operator crashed or was closed; restore it first");
    }
    return run;
  }
}
