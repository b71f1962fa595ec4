package io.weir.runtime.checkpoint;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.weir.api.checkpoint.CheckpointListener;
import io.weir.api.datastream.DataStream;
import io.weir.api.datastream.RestartStrategy;
import io.weir.api.datastream.StreamEnvironment;
import io.weir.api.functions.Collector;
import io.weir.api.functions.KeyedCoProcessFunction;
import io.weir.api.functions.KeyedProcessFunction;
import io.weir.api.state.ValueState;
import io.weir.api.state.ValueStateDescriptor;
import io.weir.runtime.checkpoint.storage.CheckpointLayout;
import io.weir.runtime.checkpoint.storage.CheckpointLoader;
import io.weir.runtime.exchange.InFlightRecords;
import io.weir.runtime.execution.CollectSink;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * A keyed two-input job with unaligned checkpoints — ids as numbers on its first input, as text on
 * its second — fails for good at parallelism 2 right after the first completed checkpoint that
 * holds records in flight on both inputs, and is restored from it at parallelism 3: each record in
 * flight goes back to the input it came on, at the subtask that now owns its key, and the final
 * count of every key equals a count by a plain loop over both inputs.
 */
@Timeout(120)
class UnalignedTwoInputRescaleTest {
  private static final long RECORDS = 3_000;
  private static final int KEYS = 7;
  private static final String JOB = "unaligned-two-input-rescale";

  /** The checkpoint after whose completion the counter failed. */
  static final AtomicLong FAILED_AFTER = new AtomicLong();

  /** Where the job's checkpoints go, for the counter to look into the ones that completed. */
  static final AtomicReference<Path> CHECKPOINTS = new AtomicReference<>();

  @TempDir Path checkpointRoot;

  @Test
  void when_restoredAtAnotherParallelism_then_recordsInFlightOfBothInputsAreCountedOnce()
      throws Exception {
    // given: a run at parallelism 2 that fails after a checkpoint with records in flight on both
    // inputs completed, without restarts; the newest completed one, which a run restores, is that
    // one or one taken before the failing record (a barrier is taken between two records)
    UnalignedRestoreTest.FAILURE_BUDGET.set(1);
    FAILED_AFTER.set(0);
    CHECKPOINTS.set(checkpointRoot);
    CollectSink<long[]> counts = new CollectSink<>("two-input-rescaled-counts");
    assertThatThrownBy(() -> run(2, counts)).isNotNull();
    assertThat(FAILED_AFTER.get()).as("the checkpoint the counter failed after").isPositive();
    long restored = UnalignedRestoreTest.newestCompletedCheckpoint(checkpointRoot.resolve(JOB));
    assertThat(restored).isGreaterThanOrEqualTo(FAILED_AFTER.get());
    assertThat(inFlightRecords(checkpointRoot, restored, ".input-1")).isPositive();
    assertThat(inFlightRecords(checkpointRoot, restored, ".input-2")).isPositive();

    // when: restored from its newest checkpoint at parallelism 3
    UnalignedRestoreTest.FAILURE_BUDGET.set(0);
    run(3, counts);

    // then
    Map<Long, Long> finalCounts = new TreeMap<>();
    for (long[] count : CollectSink.<long[]>results("two-input-rescaled-counts")) {
      finalCounts.merge(count[0], count[1], Math::max);
    }
    Map<Long, Long> expected = new TreeMap<>();
    for (long id = 0; id < RECORDS; id++) {
      expected.merge(id % KEYS, 2L, Long::sum);
    }
    assertThat(finalCounts).isEqualTo(expected);
  }

  private void run(int parallelism, CollectSink<long[]> counts) throws Exception {
    StreamEnvironment env = StreamEnvironment.getExecutionEnvironment().setParallelism(parallelism);
    env.enableCheckpointing(Duration.ofMillis(50));
    env.setCheckpointDirectory(checkpointRoot);
    env.config().retainedCheckpoints(1_000).enableUnalignedCheckpoints();
    env.setRestartStrategy(RestartStrategy.none());
    DataStream<Long> numbers =
        env.addSource(new SplitSequenceSource("numbers", 0, RECORDS, 6, 0)).uid("numbers");
    DataStream<String> texts =
        env.addSource(new SplitSequenceSource("texts", 0, RECORDS, 6, 0))
            .uid("texts")
            .map(String::valueOf)
            .uid("as-text");
    numbers
        .connect(texts)
        .keyBy(id -> id % KEYS, text -> Long.parseLong(text) % KEYS)
        .process(new SlowCounterFailingOnce())
        .uid("counter")
        .addSink(counts);
    env.execute(JOB);
  }

  private static long inFlightRecords(Path checkpointRoot, long checkpointId, String input)
      throws Exception {
    Path directory =
        checkpointRoot.resolve(JOB).resolve(CheckpointLayout.checkpointDirectoryName(checkpointId));
    return CheckpointLoader.load(directory).operators().get("counter").subtasks().values().stream()
        .flatMap(subtask -> subtask.listStates().entrySet().stream())
        .filter(state -> InFlightRecords.isInFlightState(state.getKey()))
        .filter(state -> state.getKey().endsWith(input))
        .mapToLong(state -> state.getValue().size())
        .sum();
  }

  /**
   * Counts the records of each key from both inputs in keyed state, slowly, and emits {@code {key,
   * count}}; throws once at its first record after a checkpoint completed that holds records in
   * flight on both inputs (an earlier one may hold none, on a loaded machine above all).
   */
  static final class SlowCounterFailingOnce
      extends KeyedCoProcessFunction<Long, Long, String, long[]> implements CheckpointListener {
    private transient ValueState<Long> count;
    private transient long completed;

    @Override
    public void open() {
      count = getRuntimeContext().getState(new ValueStateDescriptor<>("count"));
    }

    @Override
    public void processElement1(
        Long value, KeyedProcessFunction.Context<Long> context, Collector<long[]> out)
        throws Exception {
      countOne(value, out);
    }

    @Override
    public void processElement2(
        String value, KeyedProcessFunction.Context<Long> context, Collector<long[]> out)
        throws Exception {
      countOne(Long.parseLong(value), out);
    }

    private void countOne(long id, Collector<long[]> out) throws Exception {
      Thread.sleep(1);
      if (completed > 0
          && UnalignedRestoreTest.FAILURE_BUDGET.getAndUpdate(left -> Math.max(0, left - 1)) > 0) {
        FAILED_AFTER.set(completed);
        throw new IllegalStateException("injected failure after checkpoint " + completed);
      }
      Long current = count.value();
      long next = current == null ? 1 : current + 1;
      count.update(next);
      out.collect(new long[] {id % KEYS, next});
    }

    @Override
    public void notifyCheckpointComplete(long checkpointId) throws Exception {
      if (completed == 0
          && inFlightRecords(CHECKPOINTS.get(), checkpointId, ".input-1") > 0
          && inFlightRecords(CHECKPOINTS.get(), checkpointId, ".input-2") > 0) {
        completed = checkpointId;
      }
    }
  }
}
