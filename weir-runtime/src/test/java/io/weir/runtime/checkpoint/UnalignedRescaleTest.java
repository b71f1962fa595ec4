package io.weir.runtime.checkpoint;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.weir.api.datastream.RestartStrategy;
import io.weir.api.datastream.StreamEnvironment;
import io.weir.runtime.execution.CollectSink;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Map;
import java.util.TreeMap;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * A job with unaligned checkpoints fails for good at parallelism 2 right after a checkpoint that
 * holds records in flight, and is restored from it at parallelism 3: the records in flight go to
 * the subtasks that now own their keys, and the final count of every key equals a count by a plain
 * loop over the input.
 */
@Timeout(120)
class UnalignedRescaleTest {
  private static final long RECORDS = 4_000;
  private static final int KEYS = 7;
  private static final String JOB = "unaligned-rescale";

  @TempDir Path checkpointRoot;

  @Test
  void when_restoredAtAnotherParallelism_then_recordsInFlightAreCountedOnceByTheirNewOwner()
      throws Exception {
    // given: a run at parallelism 2 that fails after a checkpoint with records in flight
    // completed, without restarts; the newest completed one, which a run restores, is that one or
    // one taken before the failing record (a barrier is taken between two records)
    UnalignedRestoreTest.FAILURE_BUDGET.set(1);
    UnalignedRestoreTest.FAILED_AFTER.set(0);
    Path jobCheckpoints = checkpointRoot.resolve(JOB);
    UnalignedRestoreTest.JOB_CHECKPOINTS.set(jobCheckpoints);
    CollectSink<long[]> counts = new CollectSink<>("rescaled-counts");
    assertThatThrownBy(() -> run(2, RestartStrategy.none(), counts)).isNotNull();
    long failedAfter = UnalignedRestoreTest.FAILED_AFTER.get();
    assertThat(failedAfter).as("the checkpoint the counter failed after").isPositive();
    long restored = UnalignedRestoreTest.newestCompletedCheckpoint(jobCheckpoints);
    assertThat(restored).isGreaterThanOrEqualTo(failedAfter);
    assertThat(UnalignedRestoreTest.inFlightRecordsOf(jobCheckpoints, restored)).isPositive();

    // when: restored from its newest checkpoint at parallelism 3
    UnalignedRestoreTest.FAILURE_BUDGET.set(0);
    run(3, RestartStrategy.none(), counts);

    // then
    Map<Long, Long> finalCounts = new TreeMap<>();
    for (long[] count : CollectSink.<long[]>results("rescaled-counts")) {
      finalCounts.merge(count[0], count[1], Math::max);
    }
    Map<Long, Long> expected = new TreeMap<>();
    for (long id = 0; id < RECORDS; id++) {
      expected.merge(id % KEYS, 1L, Long::sum);
    }
    assertThat(finalCounts).isEqualTo(expected);
  }

  private void run(int parallelism, RestartStrategy restarts, CollectSink<long[]> counts)
      throws Exception {
    StreamEnvironment env = StreamEnvironment.getExecutionEnvironment().setParallelism(parallelism);
    env.enableCheckpointing(Duration.ofMillis(50));
    env.setCheckpointDirectory(checkpointRoot);
    env.config().retainedCheckpoints(1_000).enableUnalignedCheckpoints();
    env.setRestartStrategy(restarts);
    env.addSource(new SplitSequenceSource("source", 0, RECORDS, 6, 0))
        .uid("source")
        .keyBy(id -> id % KEYS)
        .map(new UnalignedRestoreTest.SlowCounterFailingOnce())
        .uid("counter")
        .addSink(counts);
    env.execute(JOB);
  }
}
