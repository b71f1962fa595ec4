package io.weir.runtime.checkpoint;

import static org.assertj.core.api.Assertions.assertThat;

import io.weir.api.checkpoint.CheckpointListener;
import io.weir.api.datastream.JobResult;
import io.weir.api.datastream.RestartStrategy;
import io.weir.api.datastream.StreamEnvironment;
import io.weir.api.functions.RichMapFunction;
import io.weir.api.state.ValueState;
import io.weir.api.state.ValueStateDescriptor;
import io.weir.runtime.checkpoint.storage.CheckpointLayout;
import io.weir.runtime.checkpoint.storage.CheckpointLoader;
import io.weir.runtime.checkpoint.storage.MetadataFormat;
import io.weir.runtime.exchange.InFlightRecords;
import io.weir.runtime.execution.CollectSink;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * A job whose slow keyed counter fails right after an unaligned checkpoint completed, while its
 * gate is full: the restore replays the records that checkpoint found in flight before new input,
 * and the final count of every key equals a count by a plain loop over the input.
 */
@Timeout(120)
class UnalignedRestoreTest {
  private static final long RECORDS = 4_000;
  private static final int KEYS = 7;

  /** Failures still to inject; static because the runtime works on copies of the function. */
  static final AtomicInteger FAILURE_BUDGET = new AtomicInteger();

  /** The checkpoint after whose completion the counter failed. */
  static final AtomicLong FAILED_AFTER = new AtomicLong();

  /**
   * The job's checkpoint directory, for the counter to look into the checkpoints that completed.
   */
  static final AtomicReference<Path> JOB_CHECKPOINTS = new AtomicReference<>();

  @TempDir Path checkpointRoot;

  @Test
  void when_restoredFromUnalignedCheckpoint_then_recordsInFlightAreCountedExactlyOnce()
      throws Exception {
    // given
    FAILURE_BUDGET.set(1);
    FAILED_AFTER.set(0);
    JOB_CHECKPOINTS.set(checkpointRoot.resolve("unaligned-restore"));
    StreamEnvironment env = StreamEnvironment.getExecutionEnvironment();
    env.enableCheckpointing(Duration.ofMillis(50));
    env.setCheckpointDirectory(checkpointRoot);
    env.config().retainedCheckpoints(1_000).enableUnalignedCheckpoints();
    env.setRestartStrategy(RestartStrategy.fixedDelay(3, Duration.ofMillis(10)));
    env.addSource(new SplitSequenceSource("source", 0, RECORDS, 1, 0))
        .uid("source")
        .keyBy(id -> id % KEYS)
        .map(new SlowCounterFailingOnce())
        .uid("counter")
        .addSink(new CollectSink<>("unaligned-counts"));

    // when
    JobResult result = env.execute("unaligned-restore");

    // then
    assertThat(result.restarts()).isEqualTo(1);
    assertThat(inFlightRecordsOf(JOB_CHECKPOINTS.get(), FAILED_AFTER.get()))
        .as("records in flight in checkpoint %d, restored after the failure", FAILED_AFTER.get())
        .isPositive();
    assertThat(KeyCounts.committed("unaligned-counts"))
        .isEqualTo(KeyCounts.byPlainLoop(RECORDS, KEYS));
  }

  /** The records in flight the counter stored in a checkpoint of the job. */
  static long inFlightRecordsOf(Path jobDirectory, long checkpointId) throws Exception {
    Path directory = jobDirectory.resolve(CheckpointLayout.checkpointDirectoryName(checkpointId));
    return CheckpointLoader.load(directory).operators().get("counter").subtasks().values().stream()
        .flatMap(subtask -> subtask.listStates().entrySet().stream())
        .filter(state -> InFlightRecords.isInFlightState(state.getKey()))
        .mapToLong(state -> state.getValue().size())
        .sum();
  }

  /** The newest checkpoint of the job that completed (its metadata written), else 0. */
  static long newestCompletedCheckpoint(Path jobDirectory) throws IOException {
    for (Path directory : CheckpointLayout.checkpointDirectoriesNewestFirst(jobDirectory)) {
      if (Files.exists(directory.resolve(MetadataFormat.FILE_NAME))) {
        return CheckpointLayout.checkpointIdOf(directory).orElseThrow();
      }
    }
    return 0;
  }

  /**
   * Counts the records of each key in keyed state, slowly, and emits {@code {key, count}}; throws
   * once at its first record after a checkpoint completed that holds records in flight (a first
   * checkpoint may come before the source emitted anything, on a loaded machine above all).
   */
  static final class SlowCounterFailingOnce extends RichMapFunction<Long, long[]>
      implements CheckpointListener {
    private transient ValueState<Long> count;
    private transient long completed;

    @Override
    public void open() {
      count = getRuntimeContext().getState(new ValueStateDescriptor<>("count"));
    }

    @Override
    public long[] map(Long value) throws Exception {
      Thread.sleep(1);
      if (completed > 0 && FAILURE_BUDGET.getAndUpdate(left -> Math.max(0, left - 1)) > 0) {
        FAILED_AFTER.set(completed);
        throw new IllegalStateException("injected failure after checkpoint " + completed);
      }
      Long current = count.value();
      long next = current == null ? 1 : current + 1;
      count.update(next);
      return new long[] {value % KEYS, next};
    }

    @Override
    public void notifyCheckpointComplete(long checkpointId) throws Exception {
      if (completed == 0 && inFlightRecordsOf(JOB_CHECKPOINTS.get(), checkpointId) > 0) {
        completed = checkpointId;
      }
    }
  }
}
