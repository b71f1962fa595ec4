package io.weir.runtime.checkpoint;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

import io.weir.api.checkpoint.CheckpointListener;
import io.weir.api.checkpoint.CheckpointedFunction;
import io.weir.api.checkpoint.FunctionInitializationContext;
import io.weir.api.checkpoint.FunctionSnapshotContext;
import io.weir.api.datastream.JobResult;
import io.weir.api.datastream.RestartStrategy;
import io.weir.api.datastream.StreamEnvironment;
import io.weir.api.functions.MapFunction;
import io.weir.api.functions.RichMapFunction;
import io.weir.api.state.ValueState;
import io.weir.api.state.ValueStateDescriptor;
import io.weir.runtime.checkpoint.storage.CheckpointLayout;
import io.weir.runtime.checkpoint.storage.CheckpointLoader;
import io.weir.runtime.checkpoint.storage.MetadataFormat;
import io.weir.runtime.checkpoint.storage.TaskSnapshotFormat;
import io.weir.runtime.exchange.InFlightRecords;
import io.weir.runtime.execution.CollectSink;
import io.weir.runtime.state.TaskSnapshot;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * With unaligned checkpoints, a source whose output waits for room downstream sends its barrier
 * without waiting for that room: the keyed counter behind it stalls on one record while its gate is
 * full, the source is blocked handing over a batch, and still a checkpoint reaches the source's
 * task. The batch the source was blocked on travels behind the barrier and is stored in flight with
 * the source's snapshot, the gate's batches with the counter's; a restore from that checkpoint, at
 * the same or another parallelism, counts every record once (the final count of every key equals a
 * count by a plain loop).
 *
 * <p>Which checkpoint finds the source blocked depends on the machine's pace (a barrier also hands
 * over a partly filled batch, so the gate's batches need not be full): the test waits until the
 * source's task has written, for a checkpoint taken during the stall, a state file holding records
 * its barrier overtook, and only then ends the stall. A run in which a later checkpoint completed
 * first and subsumed that one runs again.
 */
@Timeout(180)
class UnalignedBlockedOutputTest {
  private static final long RECORDS = 8_000;
  private static final int KEYS = 7;
  // The source's one output edge, to the counter's one subtask at parallelism 1.
  private static final String OVERTAKEN_OUTPUT = InFlightRecords.outputStateName(0, 0);

  /** Released by the test once the source stored its overtaken output for such a checkpoint. */
  static volatile CountDownLatch stallEnd;

  /** Stalls the counter has left: one, at its first record. */
  static final AtomicInteger STALLS_LEFT = new AtomicInteger();

  /** The checkpoints the source's task took while the counter stalled. */
  static final Set<Long> TAKEN_DURING_STALL = ConcurrentHashMap.newKeySet();

  /** Of those, the ones for which the source's task stored records its barrier overtook. */
  static final Set<Long> OVERTOOK_OUTPUT = ConcurrentHashMap.newKeySet();

  static volatile boolean stalling;

  /** Failures still to inject once a checkpoint that overtook the source's output completed. */
  static final AtomicInteger FAILURE_BUDGET = new AtomicInteger();

  private static final int RUNS_AT_MOST = 3;

  @TempDir Path checkpointRoot;

  /** The runs a test started, waited for after it so that none runs into the next test. */
  private final List<CompletableFuture<JobResult>> runs = new ArrayList<>();

  @BeforeEach
  void reset() {
    stallEnd = new CountDownLatch(1);
    STALLS_LEFT.set(1);
    TAKEN_DURING_STALL.clear();
    OVERTOOK_OUTPUT.clear();
    stalling = false;
  }

  @AfterEach
  void releaseStallAndAwaitRuns() {
    stallEnd.countDown();
    FAILURE_BUDGET.set(0);
    for (CompletableFuture<JobResult> run : runs) {
      await().atMost(Duration.ofSeconds(60)).until(run::isDone);
    }
  }

  @Test
  void when_theSourceWaitsForRoom_then_itsBarrierLeavesFirstAndTheBatchIsInFlight()
      throws Exception {
    // given: a job whose counter will stall while its gate is full
    FAILURE_BUDGET.set(0);

    // when: the counter stalls, and the source blocks handing a batch to its full gate
    String job =
        untilAnOvertakingCheckpointCompleted(
            "blocked-output",
            name -> {
              CompletableFuture<JobResult> run = runAsync(name, 1, RestartStrategy.none());
              awaitOvertakenOutputStoredDuringStall(name, run);
              stallEnd.countDown();
              run.get();
            });

    // then: such a checkpoint completed, with the gate's records in flight at the counter and the
    // batch the source was blocked on in flight at the source (the wait above), and every key's
    // count is exact
    assertThat(KeyCounts.committed(job)).isEqualTo(KeyCounts.byPlainLoop(RECORDS, KEYS));
  }

  @Test
  void when_restoredFromTheCheckpointTakenWhileBlocked_then_everyRecordCountsOnce()
      throws Exception {
    // given: the counter fails once a checkpoint that overtook the source's output completed
    List<JobResult> results = new ArrayList<>();

    // when
    String job =
        untilAnOvertakingCheckpointCompleted(
            "blocked-output-restore",
            name -> {
              FAILURE_BUDGET.set(1);
              CompletableFuture<JobResult> run =
                  runAsync(name, 1, RestartStrategy.fixedDelay(3, Duration.ofMillis(10)));
              awaitOvertakenOutputStoredDuringStall(name, run);
              stallEnd.countDown();
              results.add(run.get());
            });

    // then
    assertThat(results.get(results.size() - 1).restarts()).isEqualTo(1);
    assertThat(KeyCounts.committed(job)).isEqualTo(KeyCounts.byPlainLoop(RECORDS, KEYS));
  }

  @Test
  void when_restoredAtAnotherParallelism_then_theBlockedBatchCountsOnceAtItsKeysOwner()
      throws Exception {
    // given: a run at parallelism 1 that fails for good once a checkpoint that overtook the
    // source's output completed
    String job =
        untilAnOvertakingCheckpointCompleted(
            "blocked-output-rescale",
            name -> {
              FAILURE_BUDGET.set(1);
              CompletableFuture<JobResult> first = runAsync(name, 1, RestartStrategy.none());
              awaitOvertakenOutputStoredDuringStall(name, first);
              stallEnd.countDown();
              assertThatThrownBy(first::join).isNotNull();
            });

    // when: restored from its newest checkpoint at parallelism 3
    FAILURE_BUDGET.set(0);
    runAsync(job, 3, RestartStrategy.none()).get();

    // then
    assertThat(KeyCounts.committed(job)).isEqualTo(KeyCounts.byPlainLoop(RECORDS, KEYS));
  }

  /** One run of a test's job under the name it is given. */
  @FunctionalInterface
  private interface Scenario {
    void run(String job) throws Exception;
  }

  /**
   * Runs {@code scenario} under a fresh job name until a checkpoint that overtook the source's
   * output completed in it, and returns that name. The source's and the counter's state are written
   * on two threads, so a later checkpoint can complete first and subsume the one that overtook:
   * such a run proves nothing, and the scenario runs again, {@value #RUNS_AT_MOST} times at most.
   */
  private String untilAnOvertakingCheckpointCompleted(String name, Scenario scenario)
      throws Exception {
    for (int run = 1; ; run++) {
      String job = name + "-" + run;
      reset();
      scenario.run(job);
      if (!completedWithInFlightOnBothSides(job).isEmpty()) {
        return job;
      }
      assertThat(run)
          .as(
              "runs in which no checkpoint that overtook the source's output completed with"
                  + " records in flight on both sides (overtook: "
                  + OVERTOOK_OUTPUT
                  + ")")
          .isLessThan(RUNS_AT_MOST);
    }
  }

  private void awaitOvertakenOutputStoredDuringStall(String job, CompletableFuture<JobResult> run) {
    await()
        .atMost(Duration.ofSeconds(60))
        .failFast("the job ended before the stall", run::isDone)
        .until(() -> sourceStoredOvertakenOutput(job));
  }

  /**
   * Whether the source's task wrote, for a checkpoint it took during the stall, a state file with
   * records its barrier overtook; notes those checkpoints. A state file still being written does
   * not read yet, and is looked at again.
   */
  private boolean sourceStoredOvertakenOutput(String job) throws IOException {
    for (long checkpointId : TAKEN_DURING_STALL) {
      Path directory =
          checkpointRoot
              .resolve(job)
              .resolve(CheckpointLayout.checkpointDirectoryName(checkpointId));
      if (!Files.isDirectory(directory)) {
        continue;
      }
      try (Stream<Path> files = Files.list(directory)) {
        for (Path file : (Iterable<Path>) files::iterator) {
          if (file.getFileName().toString().endsWith(".state") && holdsOvertakenOutput(file)) {
            OVERTOOK_OUTPUT.add(checkpointId);
          }
        }
      }
    }
    return !OVERTOOK_OUTPUT.isEmpty();
  }

  private static boolean holdsOvertakenOutput(Path stateFile) {
    try {
      TaskSnapshot snapshot = TaskSnapshotFormat.read(Files.readAllBytes(stateFile));
      return snapshot.operators().values().stream()
          .anyMatch(
              operator ->
                  !operator.listStates().getOrDefault(OVERTAKEN_OUTPUT, List.of()).isEmpty());
    } catch (IOException partlyWritten) {
      return false;
    }
  }

  private CompletableFuture<JobResult> runAsync(
      String name, int parallelism, RestartStrategy restarts) {
    StreamEnvironment env = StreamEnvironment.getExecutionEnvironment().setParallelism(parallelism);
    env.enableCheckpointing(Duration.ofMillis(50));
    env.setCheckpointDirectory(checkpointRoot);
    env.config()
        .retainedCheckpoints(1_000)
        // Each checkpoint triggered during the stall lets the source pass its held batches on.
        .maxConcurrentCheckpoints(10)
        .enableUnalignedCheckpoints()
        .inFlightDataTarget(Duration.ZERO);
    env.setRestartStrategy(restarts);
    env.addSource(new SplitSequenceSource("source", 0, RECORDS, 1, 0))
        .uid("source")
        .map(new SourceTaskSnapshots())
        .uid("source-snapshots")
        .keyBy(id -> id % KEYS)
        .map(new StallingCounter())
        .uid("counter")
        .addSink(new CollectSink<>(name));
    CompletableFuture<JobResult> run =
        CompletableFuture.supplyAsync(
            () -> {
              try {
                return env.execute(name);
              } catch (Exception e) {
                throw new IllegalStateException(e);
              }
            });
    runs.add(run);
    return run;
  }

  /**
   * The checkpoints that overtook the source's output and completed with records in flight both at
   * the source's output (the batch it was blocked on) and at the counter's input (its full gate).
   */
  private List<Long> completedWithInFlightOnBothSides(String job) throws Exception {
    List<Long> both = new ArrayList<>();
    for (long checkpointId : OVERTOOK_OUTPUT) {
      Path directory =
          checkpointRoot
              .resolve(job)
              .resolve(CheckpointLayout.checkpointDirectoryName(checkpointId));
      if (!Files.exists(directory.resolve(MetadataFormat.FILE_NAME))) {
        continue;
      }
      Map<Boolean, Long> inFlightByOutputSide =
          CheckpointLoader.load(directory).operators().values().stream()
              .flatMap(operator -> operator.subtasks().values().stream())
              .flatMap(subtask -> subtask.listStates().entrySet().stream())
              .filter(state -> InFlightRecords.isInFlightState(state.getKey()))
              .collect(
                  Collectors.partitioningBy(
                      state -> state.getKey().equals(OVERTAKEN_OUTPUT),
                      Collectors.summingLong(state -> state.getValue().size())));
      if (inFlightByOutputSide.get(true) > 0 && inFlightByOutputSide.get(false) > 0) {
        both.add(checkpointId);
      }
    }
    return both;
  }

  /** Chained to the source: notes the checkpoints its task takes during the counter's stall. */
  static final class SourceTaskSnapshots implements MapFunction<Long, Long>, CheckpointedFunction {
    @Override
    public Long map(Long value) {
      return value;
    }

    @Override
    public void snapshotState(FunctionSnapshotContext context) {
      if (stalling) {
        TAKEN_DURING_STALL.add(context.checkpointId());
      }
    }

    @Override
    public void initializeState(FunctionInitializationContext context) {}
  }

  /**
   * Counts the records of each key in keyed state and emits {@code {key, count}}. Stalls once, at
   * its first record (its gate fills meanwhile), until the test releases it, and then takes a
   * moment a record; fails once (while failures are budgeted) at its first record after a
   * checkpoint that overtook the source's output completed.
   */
  static final class StallingCounter extends RichMapFunction<Long, long[]>
      implements CheckpointListener {
    private transient ValueState<Long> count;
    private transient long completed;
    private transient boolean stalled;

    @Override
    public void open() {
      count = getRuntimeContext().getState(new ValueStateDescriptor<>("count"));
    }

    @Override
    public long[] map(Long value) throws Exception {
      if (STALLS_LEFT.getAndUpdate(left -> Math.max(0, left - 1)) > 0) {
        stalling = true;
        stallEnd.await();
        stalling = false;
        stalled = true;
      }
      if (stalled) {
        // Slow enough that notifications arrive between its records.
        Thread.sleep(1);
      }
      // Earlier checkpoints are subsumed by newer ones, whose notification may come alone.
      if (OVERTOOK_OUTPUT.stream().anyMatch(taken -> completed >= taken)
          && FAILURE_BUDGET.getAndUpdate(left -> Math.max(0, left - 1)) > 0) {
        throw new IllegalStateException("injected failure after checkpoint " + completed);
      }
      Long current = count.value();
      long next = current == null ? 1 : current + 1;
      count.update(next);
      return new long[] {value % KEYS, next};
    }

    @Override
    public void notifyCheckpointComplete(long checkpointId) {
      completed = checkpointId;
    }
  }
}
