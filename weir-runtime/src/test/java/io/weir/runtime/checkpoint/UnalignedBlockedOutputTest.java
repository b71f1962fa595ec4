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
import io.weir.runtime.exchange.InFlightRecords;
import io.weir.runtime.execution.CollectSink;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * With unaligned checkpoints, a source whose output waits for room downstream sends its barrier
 * without waiting for that room: the keyed counter behind it stalls on one record while its gate is
 * full, the source is blocked handing over a batch, and still a checkpoint reaches the source's
 * task. The batch the source was blocked on travels in front of the barrier and is stored in flight
 * with the counter's state; a restore from that checkpoint, at the same or another parallelism,
 * counts every record once (the final count of every key equals a count by a plain loop).
 */
@Timeout(180)
class UnalignedBlockedOutputTest {
  private static final long RECORDS = 8_000;
  private static final int KEYS = 7;
  // Full batches, as the exchange sends them without adaptive credit, and gates of this many.
  private static final int BATCH = 512;
  private static final int GATE_BATCHES = 4;

  /** Released by the test once a checkpoint reached the source during the counter's stall. */
  static volatile CountDownLatch stallEnd;

  /** Stalls the counter has left: one, at its first record. */
  static final AtomicInteger STALLS_LEFT = new AtomicInteger();

  /**
   * The checkpoints whose barrier left the source's task while it held a full batch that the
   * counter's gate had no room for.
   */
  static final Set<Long> TAKEN_WHILE_BLOCKED = ConcurrentHashMap.newKeySet();

  static volatile boolean stalling;

  /** Failures still to inject once the checkpoint taken during the stall completed. */
  static final AtomicInteger FAILURE_BUDGET = new AtomicInteger();

  @TempDir Path checkpointRoot;

  @BeforeEach
  void reset() {
    stallEnd = new CountDownLatch(1);
    STALLS_LEFT.set(1);
    TAKEN_WHILE_BLOCKED.clear();
    stalling = false;
  }

  @AfterEach
  void releaseStall() {
    stallEnd.countDown();
  }

  @Test
  void when_theSourceWaitsForRoom_then_itsBarrierLeavesFirstAndTheBatchIsInFlight()
      throws Exception {
    // given: a job whose counter will stall while its gate is full
    FAILURE_BUDGET.set(0);
    CompletableFuture<JobResult> job = runAsync("blocked-output", 1, RestartStrategy.none());

    // when: the counter stalls, and the source blocks handing a batch to its full gate
    awaitCheckpointAtSourceDuringStall(job);
    stallEnd.countDown();
    job.get();

    // then: such a checkpoint holds the gate's batches and the one the source was blocked on
    assertThat(mostInFlightTakenWhileBlocked("blocked-output"))
        .isGreaterThan((long) GATE_BATCHES * BATCH);
    assertThat(finalCounts("blocked-output")).isEqualTo(countByPlainLoop());
  }

  @Test
  void when_restoredFromTheCheckpointTakenWhileBlocked_then_everyRecordCountsOnce()
      throws Exception {
    // given: the counter fails once the checkpoint taken during its stall completed
    FAILURE_BUDGET.set(1);
    CompletableFuture<JobResult> job =
        runAsync("blocked-output-restore", 1, RestartStrategy.fixedDelay(3, Duration.ofMillis(10)));

    // when
    awaitCheckpointAtSourceDuringStall(job);
    stallEnd.countDown();
    JobResult result = job.get();

    // then
    assertThat(result.restarts()).isEqualTo(1);
    assertThat(mostInFlightTakenWhileBlocked("blocked-output-restore"))
        .isGreaterThan((long) GATE_BATCHES * BATCH);
    assertThat(finalCounts("blocked-output-restore")).isEqualTo(countByPlainLoop());
  }

  @Test
  void when_restoredAtAnotherParallelism_then_theBlockedBatchCountsOnceAtItsKeysOwner()
      throws Exception {
    // given: a run at parallelism 1 that fails for good once the checkpoint taken during the
    // stall completed
    FAILURE_BUDGET.set(1);
    String job = "blocked-output-rescale";
    CompletableFuture<JobResult> first = runAsync(job, 1, RestartStrategy.none());
    awaitCheckpointAtSourceDuringStall(first);
    stallEnd.countDown();
    assertThatThrownBy(first::join).isNotNull();
    assertThat(mostInFlightTakenWhileBlocked(job)).isGreaterThan((long) GATE_BATCHES * BATCH);

    // when: restored from its newest checkpoint at parallelism 3
    FAILURE_BUDGET.set(0);
    runAsync(job, 3, RestartStrategy.none()).get();

    // then
    assertThat(finalCounts(job)).isEqualTo(countByPlainLoop());
  }

  private void awaitCheckpointAtSourceDuringStall(CompletableFuture<JobResult> job) {
    await()
        .atMost(Duration.ofSeconds(60))
        .failFast("the job ended before the stall", job::isDone)
        .until(() -> !TAKEN_WHILE_BLOCKED.isEmpty());
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
    return CompletableFuture.supplyAsync(
        () -> {
          try {
            return env.execute(name);
          } catch (Exception e) {
            throw new IllegalStateException(e);
          }
        });
  }

  private static Map<Long, Long> finalCounts(String sink) {
    Map<Long, Long> counts = new TreeMap<>();
    for (long[] count : CollectSink.<long[]>results(sink)) {
      counts.merge(count[0], count[1], Math::max);
    }
    return counts;
  }

  private static Map<Long, Long> countByPlainLoop() {
    Map<Long, Long> counts = new TreeMap<>();
    for (long id = 0; id < RECORDS; id++) {
      counts.merge(id % KEYS, 1L, Long::sum);
    }
    return counts;
  }

  /**
   * Of the completed checkpoints taken while the source was blocked, the most records in flight.
   */
  private long mostInFlightTakenWhileBlocked(String job) throws Exception {
    long most = -1;
    for (long checkpointId : TAKEN_WHILE_BLOCKED) {
      Path directory =
          checkpointRoot
              .resolve(job)
              .resolve(CheckpointLayout.checkpointDirectoryName(checkpointId));
      if (Files.isDirectory(directory)) {
        most = Math.max(most, inFlightRecordsIn(directory));
      }
    }
    return most;
  }

  private static long inFlightRecordsIn(Path directory) throws Exception {
    return CheckpointLoader.load(directory).operators().values().stream()
        .flatMap(operator -> operator.subtasks().values().stream())
        .flatMap(subtask -> subtask.listStates().entrySet().stream())
        .filter(state -> InFlightRecords.isInFlightState(state.getKey()))
        .mapToLong(state -> state.getValue().size())
        .sum();
  }

  /**
   * Chained to the source: notes the first checkpoint its task took during the stall after it
   * passed on more records than the stalled counter's batch, its full gate and the source's
   * unfinished batch hold together, so that a full batch was waiting for room.
   */
  static final class SourceTaskSnapshots implements MapFunction<Long, Long>, CheckpointedFunction {
    private static final long BLOCKED_AFTER = (GATE_BATCHES + 2L) * BATCH;
    private transient long passed;

    @Override
    public Long map(Long value) {
      passed++;
      return value;
    }

    @Override
    public void snapshotState(FunctionSnapshotContext context) {
      if (stalling && passed > BLOCKED_AFTER) {
        TAKEN_WHILE_BLOCKED.add(context.checkpointId());
      }
    }

    @Override
    public void initializeState(FunctionInitializationContext context) {}
  }

  /**
   * Counts the records of each key in keyed state and emits {@code {key, count}}. Stalls once, at
   * its first record (its gate fills meanwhile), until the test releases it, and then takes a
   * moment a record; fails once (while failures are budgeted) at its first record after a
   * checkpoint taken while the source was blocked completed.
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
      if (TAKEN_WHILE_BLOCKED.stream().anyMatch(taken -> completed >= taken)
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
