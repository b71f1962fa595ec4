package io.weir.runtime.checkpoint;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.weir.api.checkpoint.CheckpointListener;
import io.weir.api.checkpoint.CheckpointedFunction;
import io.weir.api.checkpoint.FunctionInitializationContext;
import io.weir.api.checkpoint.FunctionSnapshotContext;
import io.weir.api.datastream.JobResult;
import io.weir.api.datastream.RestartStrategy;
import io.weir.api.datastream.StreamEnvironment;
import io.weir.api.functions.RichMapFunction;
import io.weir.api.source.ParallelSourceFunction;
import io.weir.api.state.ListState;
import io.weir.api.state.ListStateDescriptor;
import io.weir.api.state.StateSerializer;
import io.weir.api.state.ValueState;
import io.weir.api.state.ValueStateDescriptor;
import io.weir.runtime.checkpoint.storage.CheckpointLayout;
import io.weir.runtime.checkpoint.storage.CheckpointLoader;
import io.weir.runtime.checkpoint.storage.MetadataFormat;
import io.weir.runtime.exchange.Batch;
import io.weir.runtime.exchange.InFlightRecords;
import io.weir.runtime.exchange.StreamEvent;
import io.weir.runtime.execution.CollectSink;
import io.weir.runtime.state.OperatorSubtaskState;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * With unaligned checkpoints a task takes a barrier announced at its gate between two records of
 * the batch it is processing, not after the batch: in source -> keyed slow counter (a sleep per
 * record) -> sink, the source emits one full batch and then holds back the rest until a checkpoint
 * that split that batch completed. Every checkpoint the counter takes meanwhile finds the counter
 * inside that batch, so the records it processed before its snapshot and the records its snapshot
 * stored in flight add up to the batch; on code that finishes the batch first, the counter
 * snapshots only before the batch or after it (nothing processed, or nothing in flight), and the
 * source gives up waiting. A restore from such a checkpoint, at the same or another parallelism,
 * replays the rest of the batch and counts every record once (every key's final count equals a
 * count by a plain loop).
 */
@Timeout(240)
class UnalignedMidBatchBarrierTest {
  // A full batch between tasks, as senders fill them with adaptive in-flight data off.
  private static final int BATCH = 512;
  private static final long RECORDS = 2L * BATCH;
  private static final int KEYS = 7;
  private static final String COUNTER = "counter";

  /** By checkpoint, the records the source emitted before its barrier (first run only). */
  static final Map<Long, Long> EMITTED_AT_SNAPSHOT = new ConcurrentHashMap<>();

  /** By checkpoint, the records the counter processed before its snapshot (first run only). */
  static final Map<Long, Long> PROCESSED_AT_SNAPSHOT = new ConcurrentHashMap<>();

  /** The checkpoints the counter took inside the first batch: some of it processed, not all. */
  static final Set<Long> SPLIT_THE_BATCH = ConcurrentHashMap.newKeySet();

  /** Opened once a checkpoint that split the batch completed: the source emits the rest. */
  static volatile CountDownLatch splitCheckpointCompleted;

  /** Opened once the source saw a checkpoint complete, so that its task's first flush is done. */
  static volatile CountDownLatch sourceStarted;

  /** Failures still to inject once a checkpoint that split the batch completed. */
  static final AtomicInteger FAILURE_BUDGET = new AtomicInteger();

  /** The checkpoint the counter restored from, 0 for none. */
  static final AtomicLong RESTORED_FROM = new AtomicLong();

  @TempDir Path checkpointRoot;

  @BeforeEach
  void reset() {
    EMITTED_AT_SNAPSHOT.clear();
    PROCESSED_AT_SNAPSHOT.clear();
    SPLIT_THE_BATCH.clear();
    splitCheckpointCompleted = new CountDownLatch(1);
    sourceStarted = new CountDownLatch(1);
    FAILURE_BUDGET.set(0);
    RESTORED_FROM.set(0);
  }

  @Test
  void when_aBarrierIsAnnouncedMidBatch_then_theRestOfTheBatchIsInFlight() throws Exception {
    // given: a job whose counter takes a batch of BATCH records, a record at a time slowly

    // when
    JobResult result = run("mid-batch", 1, RestartStrategy.none());

    // then: a completed checkpoint holds the part of the batch the counter had not processed, and
    // what it holds in flight is what the source emitted before its barrier and the counter did not
    // process before its snapshot
    assertThat(result.restarts()).isZero();
    Map<Long, Long> split = completedSplitCheckpoints("mid-batch");
    assertThat(split).as("completed checkpoints that split the batch").isNotEmpty();
    assertThat(EMITTED_AT_SNAPSHOT.get(split.keySet().iterator().next()))
        .as("records emitted before the first checkpoint that split the batch")
        .isEqualTo(BATCH);
    split.forEach(
        (checkpointId, inFlight) ->
            assertThat(PROCESSED_AT_SNAPSHOT.get(checkpointId) + inFlight)
                .as(
                    "records of checkpoint %d processed before its snapshot or in flight",
                    checkpointId)
                .isEqualTo(EMITTED_AT_SNAPSHOT.get(checkpointId)));
    assertThat(KeyCounts.committed("mid-batch")).isEqualTo(KeyCounts.byPlainLoop(RECORDS, KEYS));
  }

  @Test
  void when_restoredFromACheckpointThatSplitTheBatch_then_everyRecordCountsOnce() throws Exception {
    // given: the counter fails once a checkpoint that split the batch completed
    FAILURE_BUDGET.set(1);

    // when
    JobResult result =
        run("mid-batch-restore", 1, RestartStrategy.fixedDelay(3, Duration.ofMillis(10)));

    // then
    assertThat(result.restarts()).isEqualTo(1);
    assertRestoredFromASplitCheckpoint("mid-batch-restore");
    assertThat(KeyCounts.committed("mid-batch-restore"))
        .isEqualTo(KeyCounts.byPlainLoop(RECORDS, KEYS));
  }

  @Test
  void when_restoredAtAnotherParallelism_then_theRestOfTheBatchCountsOnceAtItsKeysOwner()
      throws Exception {
    // given: a run at parallelism 1 that fails for good once a checkpoint that split the batch
    // completed
    FAILURE_BUDGET.set(1);
    assertThatThrownBy(() -> run("mid-batch-rescale", 1, RestartStrategy.none())).isNotNull();

    // when: restored from its newest checkpoint at parallelism 3
    run("mid-batch-rescale", 3, RestartStrategy.none());

    // then
    assertRestoredFromASplitCheckpoint("mid-batch-rescale");
    assertThat(KeyCounts.committed("mid-batch-rescale"))
        .isEqualTo(KeyCounts.byPlainLoop(RECORDS, KEYS));
  }

  private void assertRestoredFromASplitCheckpoint(String job) throws Exception {
    long restored = RESTORED_FROM.get();
    assertThat(SPLIT_THE_BATCH).as("checkpoints that split the batch").contains(restored);
    assertThat(
            inFlightRecordsOf(checkpointRoot.resolve(job), restored)
                + PROCESSED_AT_SNAPSHOT.get(restored))
        .as("records of checkpoint %d processed before its snapshot or in flight", restored)
        .isEqualTo(EMITTED_AT_SNAPSHOT.get(restored));
  }

  /** By completed checkpoint that split the batch, the records the counter stored in flight. */
  private Map<Long, Long> completedSplitCheckpoints(String job) throws Exception {
    Path jobDirectory = checkpointRoot.resolve(job);
    Map<Long, Long> completed = new TreeMap<>();
    for (long checkpointId : SPLIT_THE_BATCH) {
      Path directory = jobDirectory.resolve(CheckpointLayout.checkpointDirectoryName(checkpointId));
      if (Files.exists(directory.resolve(MetadataFormat.FILE_NAME))) {
        completed.put(checkpointId, inFlightRecordsOf(jobDirectory, checkpointId));
      }
    }
    return completed;
  }

  /**
   * The records (not the watermark and end of input that follow the last one) the counter's task
   * stored in flight in a checkpoint taken at parallelism 1.
   */
  private static long inFlightRecordsOf(Path jobDirectory, long checkpointId) throws Exception {
    Path directory = jobDirectory.resolve(CheckpointLayout.checkpointDirectoryName(checkpointId));
    OperatorSubtaskState counter =
        CheckpointLoader.load(directory).operators().get(COUNTER).subtasks().get(0);
    List<StateSerializer<?>> undeclared = Collections.singletonList(null);
    long records = 0;
    for (Batch batch :
        new InFlightRecords(undeclared)
            .decode(new HashMap<>(counter.listStates()), (subtask, input, record) -> true)) {
      for (int i = 0; i < batch.size(); i++) {
        if (!(batch.value(i) instanceof StreamEvent)) {
          records++;
        }
      }
    }
    return records;
  }

  private JobResult run(String name, int parallelism, RestartStrategy restarts) throws Exception {
    StreamEnvironment env = StreamEnvironment.getExecutionEnvironment().setParallelism(parallelism);
    env.enableCheckpointing(Duration.ofMillis(20));
    env.setCheckpointDirectory(checkpointRoot);
    env.config()
        .retainedCheckpoints(1_000)
        .enableUnalignedCheckpoints()
        // Full batches, sent when full: no timeout cuts the source's first batch short.
        .inFlightDataTarget(Duration.ZERO)
        .bufferTimeout(Duration.ofMinutes(10));
    env.setRestartStrategy(restarts);
    env.addSource(new HeldBackSequence())
        .uid("source")
        .keyBy(id -> id % KEYS)
        .map(new SlowCounter())
        .uid(COUNTER)
        .addSink(new CollectSink<>(name));
    return env.execute(name);
  }

  /**
   * Emits the ids {@code 0 .. RECORDS-1}: the first {@link #BATCH} in one hold of its lock (so no
   * barrier comes between them and they fill one batch), then, once a checkpoint that split that
   * batch completed, the rest one at a time. Its position is its operator list state; started fresh
   * at parallelism 1 only.
   */
  static final class HeldBackSequence
      implements ParallelSourceFunction<Long>, CheckpointedFunction, CheckpointListener {
    private transient ListState<Long> state;
    private transient List<Long> next;
    private transient boolean restored;
    private transient volatile boolean running;

    @Override
    public void initializeState(FunctionInitializationContext context) {
      state = context.getOperatorStateStore().getListState(new ListStateDescriptor<>("next"));
      next = new ArrayList<>();
      restored = context.isRestored();
      if (restored) {
        state.get().forEach(next::add);
      } else {
        next.add(0L);
      }
    }

    @Override
    public void snapshotState(FunctionSnapshotContext context) throws Exception {
      state.update(List.copyOf(next));
      if (!restored) {
        EMITTED_AT_SNAPSHOT.put(context.checkpointId(), next.get(0));
      }
    }

    @Override
    public void notifyCheckpointComplete(long checkpointId) {
      sourceStarted.countDown();
      if (SPLIT_THE_BATCH.stream().anyMatch(split -> split <= checkpointId)) {
        splitCheckpointCompleted.countDown();
      }
    }

    @Override
    public void run(SourceContext<Long> context) throws Exception {
      running = true;
      sourceStarted.await(60, TimeUnit.SECONDS);
      while (running && !next.isEmpty() && next.get(0) < RECORDS) {
        long from = next.get(0);
        if (from == BATCH) {
          // Code that finishes a batch before its barrier never splits it: then give up.
          splitCheckpointCompleted.await(60, TimeUnit.SECONDS);
        }
        long to = from == 0 ? BATCH : from + 1;
        synchronized (context.getCheckpointLock()) {
          for (long id = from; id < to; id++) {
            context.collect(id);
          }
          next.set(0, to);
        }
      }
    }

    @Override
    public void cancel() {
      running = false;
    }
  }

  /**
   * Counts the records of each key in keyed state, sleeping a moment a record in the first run, and
   * emits {@code {key, count}}; notes what it processed before each snapshot of the first run, and
   * fails once (while failures are budgeted) at its first record after a checkpoint that split the
   * batch completed.
   */
  static final class SlowCounter extends RichMapFunction<Long, long[]>
      implements CheckpointedFunction, CheckpointListener {
    private transient ValueState<Long> count;
    private transient boolean restored;
    private transient long processed;
    private transient boolean splitCheckpointCompleted;

    @Override
    public void open() {
      count = getRuntimeContext().getState(new ValueStateDescriptor<>("count"));
    }

    @Override
    public void initializeState(FunctionInitializationContext context) {
      restored = context.isRestored();
      context.restoredCheckpointId().ifPresent(RESTORED_FROM::set);
    }

    @Override
    public long[] map(Long value) throws Exception {
      if (splitCheckpointCompleted
          && FAILURE_BUDGET.getAndUpdate(left -> Math.max(0, left - 1)) > 0) {
        throw new IllegalStateException("injected failure after a checkpoint split the batch");
      }
      if (!restored) {
        Thread.sleep(2);
      }
      processed++;
      Long current = count.value();
      long next = current == null ? 1 : current + 1;
      count.update(next);
      return new long[] {value % KEYS, next};
    }

    @Override
    public void snapshotState(FunctionSnapshotContext context) {
      if (restored) {
        return;
      }
      PROCESSED_AT_SNAPSHOT.put(context.checkpointId(), processed);
      if (processed > 0 && processed < BATCH) {
        SPLIT_THE_BATCH.add(context.checkpointId());
      }
    }

    @Override
    public void notifyCheckpointComplete(long checkpointId) {
      if (SPLIT_THE_BATCH.stream().anyMatch(split -> split <= checkpointId)) {
        splitCheckpointCompleted = true;
      }
    }
  }
}
