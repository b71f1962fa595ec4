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
import io.weir.runtime.state.OperatorSubtaskState;
import io.weir.runtime.state.TaskSnapshot;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * With unaligned checkpoints, a task between two exchanges whose output waits for room downstream
 * takes the next barrier from its input without waiting for that room: in source -> keyed counter
 * -> keyed stalling sink, the sink stalls on its first record while its gate is full, the counter
 * is blocked handing a batch to that gate, and still the counter's task takes a checkpoint during
 * the stall (the barrier announced at its gate ends its wait). The batches it was blocked on travel
 * behind the barrier and are stored in flight with the counter's snapshot; the checkpoint completes
 * once the sink's task takes the barrier, and a restore from it, at the same or another
 * parallelism, counts every record once (the final count of every key equals a count by a plain
 * loop).
 *
 * <p>On code where only a source's output is overtaken, the counter's task takes no checkpoint
 * until the sink takes the batch it is blocked on, and the wait for its state file fails. As in
 * {@link UnalignedBlockedOutputTest}, a run in which a later checkpoint completed first and
 * subsumed the one that overtook runs again.
 */
@Timeout(180)
class UnalignedBlockedTaskOutputTest {
  private static final long RECORDS = 8_000;
  private static final int KEYS = 7;
  private static final String COUNTER = "counter";
  // The counter's one output edge, to the sink's one subtask at parallelism 1.
  private static final String OVERTAKEN_OUTPUT = InFlightRecords.outputStateName(0, 0);
  private static final int RUNS_AT_MOST = 3;

  /** Released by the test once the counter stored its overtaken output for such a checkpoint. */
  static volatile CountDownLatch stallEnd;

  /** Stalls the sink has left: one, at its first record. */
  static final AtomicInteger STALLS_LEFT = new AtomicInteger();

  /** The checkpoints the counter's task took while the sink stalled. */
  static final Set<Long> TAKEN_DURING_STALL = ConcurrentHashMap.newKeySet();

  /** Of those, the ones for which the counter's task stored records its barrier overtook. */
  static final Set<Long> OVERTOOK_OUTPUT = ConcurrentHashMap.newKeySet();

  static volatile boolean stalling;

  /** Failures still to inject once a checkpoint that overtook the counter's output completed. */
  static final AtomicInteger FAILURE_BUDGET = new AtomicInteger();

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
  void when_aMiddleTaskWaitsForRoom_then_itsBarrierLeavesFirstAndTheBatchIsInFlight()
      throws Exception {
    // given: a job whose sink will stall while its gate is full
    FAILURE_BUDGET.set(0);

    // when: the sink stalls, and the counter blocks handing a batch to the sink's full gate
    String job =
        untilAnOvertakingCheckpointCompleted(
            "blocked-task-output",
            name -> {
              CompletableFuture<JobResult> run = runAsync(name, 1, RestartStrategy.none());
              awaitOvertakenOutputStoredDuringStall(name, run);
              stallEnd.countDown();
              run.get();
            });

    // then: a checkpoint the counter's task took during the stall completed with the batches it
    // was blocked on in flight at its output, and every key's count is exact
    assertThat(completedWithOvertakenCounterOutput(job)).isNotEmpty();
    assertThat(KeyCounts.committed(job)).isEqualTo(KeyCounts.byPlainLoop(RECORDS, KEYS));
  }

  @Test
  void when_restoredFromTheCheckpointTakenWhileBlocked_then_everyRecordCountsOnce()
      throws Exception {
    // given: the counter fails once a checkpoint that overtook its output completed
    List<JobResult> results = new ArrayList<>();

    // when
    String job =
        untilAnOvertakingCheckpointCompleted(
            "blocked-task-output-restore",
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
    // counter's output completed
    String job =
        untilAnOvertakingCheckpointCompleted(
            "blocked-task-output-rescale",
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
   * Runs {@code scenario} under a fresh job name until a checkpoint that overtook the counter's
   * output completed in it, and returns that name. The tasks' states are written on several
   * threads, so a later checkpoint can complete first and subsume the one that overtook: such a run
   * proves nothing, and the scenario runs again, {@value #RUNS_AT_MOST} times at most.
   */
  private String untilAnOvertakingCheckpointCompleted(String name, Scenario scenario)
      throws Exception {
    for (int run = 1; ; run++) {
      String job = name + "-" + run;
      reset();
      scenario.run(job);
      if (!completedWithOvertakenCounterOutput(job).isEmpty()) {
        return job;
      }
      assertThat(run)
          .as(
              "runs in which no checkpoint that overtook the counter's output completed"
                  + " (overtook: "
                  + OVERTOOK_OUTPUT
                  + ")")
          .isLessThan(RUNS_AT_MOST);
    }
  }

  private void awaitOvertakenOutputStoredDuringStall(String job, CompletableFuture<JobResult> run) {
    await()
        .atMost(Duration.ofSeconds(60))
        .failFast("the job ended before the stall", run::isDone)
        .until(() -> counterStoredOvertakenOutput(job));
  }

  /**
   * Whether the counter's task wrote, for a checkpoint it took during the stall, a state file with
   * records its barrier overtook; notes those checkpoints. A state file still being written does
   * not read yet, and is looked at again.
   */
  private boolean counterStoredOvertakenOutput(String job) throws IOException {
    for (long checkpointId : TAKEN_DURING_STALL) {
      Path directory = checkpointDirectory(job, checkpointId);
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
      OperatorSubtaskState counter = snapshot.operators().get(COUNTER);
      return counter != null
          && !counter.listStates().getOrDefault(OVERTAKEN_OUTPUT, List.of()).isEmpty();
    } catch (IOException partlyWritten) {
      return false;
    }
  }

  /**
   * The checkpoints that overtook the counter's output and completed with records in flight at the
   * counter's output (the batches it was blocked on).
   */
  private List<Long> completedWithOvertakenCounterOutput(String job) throws Exception {
    List<Long> completed = new ArrayList<>();
    for (long checkpointId : OVERTOOK_OUTPUT) {
      Path directory = checkpointDirectory(job, checkpointId);
      if (!Files.exists(directory.resolve(MetadataFormat.FILE_NAME))) {
        continue;
      }
      long overtaken =
          CheckpointLoader.load(directory).operators().get(COUNTER).subtasks().values().stream()
              .mapToLong(
                  subtask -> subtask.listStates().getOrDefault(OVERTAKEN_OUTPUT, List.of()).size())
              .sum();
      if (overtaken > 0) {
        completed.add(checkpointId);
      }
    }
    return completed;
  }

  private Path checkpointDirectory(String job, long checkpointId) {
    return checkpointRoot
        .resolve(job)
        .resolve(CheckpointLayout.checkpointDirectoryName(checkpointId));
  }

  private CompletableFuture<JobResult> runAsync(
      String name, int parallelism, RestartStrategy restarts) {
    StreamEnvironment env = StreamEnvironment.getExecutionEnvironment().setParallelism(parallelism);
    env.enableCheckpointing(Duration.ofMillis(50));
    env.setCheckpointDirectory(checkpointRoot);
    env.config()
        .retainedCheckpoints(1_000)
        // Each checkpoint triggered during the stall lets the counter pass its held batches on.
        .maxConcurrentCheckpoints(10)
        .enableUnalignedCheckpoints()
        .inFlightDataTarget(Duration.ZERO);
    env.setRestartStrategy(restarts);
    env.addSource(new SplitSequenceSource("source", 0, RECORDS, 1, 0))
        .uid("source")
        .keyBy(id -> id % KEYS)
        .map(new FailingCounter())
        .uid(COUNTER)
        .keyBy(count -> count[0])
        .map(new StallingPassThrough())
        .uid("stall")
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
   * Counts the records of each key in keyed state and emits {@code {key, count}}; notes the
   * checkpoints its task takes during the sink's stall, and fails once (while failures are
   * budgeted) at its first record after a checkpoint that overtook its output completed.
   */
  static final class FailingCounter extends RichMapFunction<Long, long[]>
      implements CheckpointedFunction, CheckpointListener {
    private transient ValueState<Long> count;
    private transient long completed;

    @Override
    public void open() {
      count = getRuntimeContext().getState(new ValueStateDescriptor<>("count"));
    }

    @Override
    public long[] map(Long value) throws Exception {
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
    public void snapshotState(FunctionSnapshotContext context) {
      if (stalling) {
        TAKEN_DURING_STALL.add(context.checkpointId());
      }
    }

    @Override
    public void initializeState(FunctionInitializationContext context) {}

    @Override
    public void notifyCheckpointComplete(long checkpointId) {
      completed = checkpointId;
    }
  }

  /**
   * Chained to the sink: stalls once, at its first record (its gate fills meanwhile), until the
   * test releases it, and then takes a moment a record, so that the counter stays backpressured and
   * notifications reach it between its records.
   */
  static final class StallingPassThrough implements MapFunction<long[], long[]> {
    private transient boolean stalled;

    @Override
    public long[] map(long[] count) throws Exception {
      if (STALLS_LEFT.getAndUpdate(left -> Math.max(0, left - 1)) > 0) {
        stalling = true;
        stallEnd.await();
        stalling = false;
        stalled = true;
      }
      if (stalled) {
        Thread.sleep(1);
      }
      return count;
    }
  }
}
