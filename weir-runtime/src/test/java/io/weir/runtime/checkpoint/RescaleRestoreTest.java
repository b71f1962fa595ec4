package io.weir.runtime.checkpoint;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.weir.api.datastream.JobExecutionException;
import io.weir.api.datastream.RestartStrategy;
import io.weir.api.datastream.StreamEnvironment;
import io.weir.api.functions.MapFunction;
import io.weir.runtime.execution.CollectSink;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * A job stopped by a failure mid-run resumes from its checkpoint with another parallelism: key
 * groups and the source's split list go to the new subtasks, and the counts per key come out exact.
 */
@Timeout(60)
class RescaleRestoreTest {
  private static final long RECORDS = 6_000;
  private static final int KEYS = 12;
  private static final int SPLITS = 6;

  /** Whether the stopping map still has to throw; static as functions are copied. */
  static final AtomicBoolean STOP_ARMED = new AtomicBoolean();

  @TempDir Path checkpointRoot;

  @ParameterizedTest(name = "{0} -> {1}")
  @CsvSource({"2, 3", "3, 1"})
  void when_restoredWithOtherParallelism_then_countsPerKeyStayExact(int before, int after)
      throws Exception {
    // given: a first run that checkpoints, then fails halfway with no restarts left
    STOP_ARMED.set(true);
    assertThatThrownBy(() -> runJob(before, "before"))
        .isInstanceOf(JobExecutionException.class)
        .hasMessageContaining("stopped halfway");

    // when: the job resumes from its latest checkpoint with the other parallelism
    runJob(after, "after");

    // then
    List<long[]> counts = new ArrayList<>(CollectSink.<long[]>results("before"));
    counts.addAll(CollectSink.results("after"));
    Map<Long, Long> finalCounts =
        counts.stream().collect(Collectors.toMap(c -> c[0], c -> c[1], Math::max, TreeMap::new));
    // the second run counted on from the checkpoint rather than from zero
    assertThat(RestoreProbe.RESTORED_CHECKPOINT.get()).isPositive();
    assertThat(CollectSink.<long[]>results("after")).hasSizeLessThan((int) RECORDS);
    assertThat(finalCounts).hasSize(KEYS);
    assertThat(finalCounts.values()).containsOnly(RECORDS / KEYS);
  }

  private void runJob(int parallelism, String output) throws Exception {
    RestoreProbe.reset();
    StreamEnvironment env = StreamEnvironment.getExecutionEnvironment().setParallelism(parallelism);
    env.enableCheckpointing(Duration.ofMillis(30));
    env.setCheckpointDirectory(checkpointRoot);
    env.setRestartStrategy(RestartStrategy.none());
    env.addSource(new SplitSequenceSource("source", 0, RECORDS, SPLITS, 3_000 / parallelism))
        .uid("source")
        .map(new StopHalfway())
        .uid("stop")
        .map(new RestoreProbe<>())
        .uid("probe")
        .keyBy(i -> i % KEYS)
        .map(new KeyCounter(KEYS))
        .uid("counter")
        .addSink(new CollectSink<>(output))
        .uid("sink");
    env.execute("rescale");
  }

  /** Throws once at the middle record while armed. */
  static final class StopHalfway implements MapFunction<Long, Long> {
    @Override
    public Long map(Long value) {
      if (value == RECORDS / 2 && STOP_ARMED.compareAndSet(true, false)) {
        throw new IllegalStateException("stopped halfway");
      }
      return value;
    }
  }
}
