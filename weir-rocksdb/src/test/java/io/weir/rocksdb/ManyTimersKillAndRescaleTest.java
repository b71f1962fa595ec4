package io.weir.rocksdb;

import static org.assertj.core.api.Assertions.assertThat;

import io.weir.api.state.StateSerializers;
import io.weir.api.state.ValueState;
import io.weir.api.state.ValueStateDescriptor;
import io.weir.runtime.checkpoint.CompletedCheckpoint;
import io.weir.runtime.checkpoint.storage.CheckpointLoader;
import io.weir.runtime.state.KeyedStateBackend;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * A job that keeps 400,000 event-time timers waiting runs on RocksDB with a 64 MB heap, in which
 * the same job on the heap backend dies of {@code OutOfMemoryError} (there each timer is a queue
 * entry, a tree-set entry and boxed times, and a checkpoint serializes them all once more): killed
 * with {@code kill -9} at parallelism 2 and resumed at 3 to the end of its input. Every key's state
 * in the final checkpoint shows that each of its timers fired exactly once, in order, after the
 * watermark passed it.
 */
@Timeout(value = 5, unit = TimeUnit.MINUTES)
class ManyTimersKillAndRescaleTest {
  private static final long KEYS = 10_000;
  private static final long RECORDS = 500_000;
  private static final long LAG = 400_000;
  private static final int HEAP_MEGABYTES = 64;
  private static final String TIMERS = "timer-queue:__timers.event-time";

  @TempDir Path checkpointRoot;
  @TempDir Path localRoot;
  @TempDir Path logs;

  @Test
  void when_killedAndResumedAtAnotherParallelism_then_everyTimerFiresOnceInOrder()
      throws Exception {
    Path jobDirectory = checkpointRoot.resolve(ManyTimersJob.NAME);
    ChildJobs jobs = new ChildJobs(localRoot, logs);

    // given: parallelism 2, killed after a few checkpoints
    Process first = jobs.start(ManyTimersJob.class, "parallelism-2", HEAP_MEGABYTES, arguments(2));
    ChildJobs.awaitCheckpointAfter(jobDirectory, 3);
    ChildJobs.kill(first);

    // when: resumed at 3 (each new subtask takes key groups, and their timers, from both old
    // ones) to the end of the input
    Process second = jobs.start(ManyTimersJob.class, "parallelism-3", HEAP_MEGABYTES, arguments(3));
    assertThat(second.waitFor(180, TimeUnit.SECONDS)).as("the last run ends").isTrue();
    assertThat(second.exitValue()).as("exit code, see " + logs).isZero();

    // then
    verifyEveryKey(CheckpointLoader.load(jobDirectory));
  }

  private List<String> arguments(int parallelism) {
    return List.of(
        checkpointRoot.toString(),
        String.valueOf(parallelism),
        String.valueOf(KEYS),
        String.valueOf(RECORDS),
        String.valueOf(LAG));
  }

  private static void verifyEveryKey(CompletedCheckpoint checkpoint) throws Exception {
    try (KeyedStateBackend backend = ChildJobs.restoreAll(checkpoint, ManyTimersJob.OPERATOR_UID)) {
      ValueState<byte[]> state =
          backend.getState(
              new ValueStateDescriptor<>(ManyTimersJob.STATE_NAME, StateSerializers.tagged()));
      List<String> wrong = new ArrayList<>();
      for (long key = 0; key < KEYS; key++) {
        backend.setCurrentKey(key);
        byte[] bytes = state.value();
        ManyTimersJob.Fired expected =
            new ManyTimersJob.Fired(RECORDS / KEYS, RECORDS - KEYS + key + LAG, 0);
        ManyTimersJob.Fired actual = bytes == null ? null : ManyTimersJob.Fired.of(bytes);
        if (!expected.equals(actual) && wrong.size() < 10) {
          wrong.add(key + ": " + actual);
        }
      }
      assertThat(wrong).as("keys whose timers did not fire once each, in order").isEmpty();
      long[] waiting = {0};
      ((RocksDbKeyedStateBackend) backend).countEntries(TIMERS, () -> waiting[0]++);
      assertThat(waiting[0]).as("timers still waiting").isZero();
    }
  }
}
