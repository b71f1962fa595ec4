package io.weir.rocksdb;

import static org.assertj.core.api.Assertions.assertThat;

import io.weir.api.datastream.JobResult;
import io.weir.api.datastream.RestartStrategy;
import io.weir.api.datastream.StreamEnvironment;
import io.weir.api.eventtime.WatermarkStrategy;
import io.weir.api.functions.MapFunction;
import io.weir.api.functions.RichMapFunction;
import io.weir.api.sink.SinkFunction;
import io.weir.api.source.GeneratorSource;
import io.weir.api.state.StateBackend;
import io.weir.api.state.StateBackends;
import io.weir.api.state.ValueState;
import io.weir.api.state.ValueStateDescriptor;
import io.weir.api.windowing.TumblingEventTimeWindows;
import io.weir.runtime.checkpoint.CompletedCheckpoint;
import io.weir.runtime.checkpoint.storage.CheckpointLayout;
import io.weir.runtime.checkpoint.storage.CheckpointLoader;
import io.weir.runtime.checkpoint.storage.StateFileListings;
import io.weir.runtime.state.StateFileListing.StateFile;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Queue;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.atomic.AtomicBoolean;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;

/** Whole jobs in this JVM on the RocksDB backend: windows, timers, checkpoints, a broken file. */
@Timeout(120)
class RocksDbJobTest {
  /** What the sink saw; static as functions are copied into each subtask. */
  static final Queue<Long> RESULTS = new ConcurrentLinkedQueue<>();

  @TempDir Path checkpointRoot;
  @RegisterExtension final LocalRoot localRoot = new LocalRoot();

  @Test
  void when_eventTimeWindowsRunOnRocksDb_then_theyEmitWhatTheHeapEmits() throws Exception {
    // given
    List<Long> onHeap = windowSums(StateBackends.heap(), null);

    // when
    List<Long> inRocksDb = windowSums(StateBackends.rocksdb(), null);

    // then
    assertThat(inRocksDb).hasSizeGreaterThan(100).isEqualTo(onHeap);
    Path inProcess =
        LocalWorkingDirectories.processDirectory()
            .resolve("in-memory-checkpoints")
            .resolve(LocalWorkingDirectories.safe("windows"));
    assertThat(CheckpointLayout.checkpointDirectoriesNewestFirst(inProcess))
        .as("in-process checkpoint files are pruned like a checkpoint directory")
        .hasSizeLessThanOrEqualTo(2);
  }

  @Test
  void when_theNewestCheckpointLostAFile_then_theRestoreFallsBackToTheOlderOneNamingIt()
      throws Exception {
    // given: a job that kept its two newest checkpoints
    windowSums(StateBackends.rocksdb(), checkpointRoot);
    Path jobDirectory = checkpointRoot.resolve("windows");
    List<Path> checkpoints =
        CheckpointLayout.checkpointDirectoriesNewestFirst(jobDirectory).stream()
            .filter(directory -> Files.exists(directory.resolve("_metadata")))
            .toList();
    assertThat(checkpoints).hasSizeGreaterThanOrEqualTo(2);
    Path newest = checkpoints.get(0);
    StateFile written =
        StateFileListings.read(newest).stream()
            .filter(StateFile::writtenByThisCheckpoint)
            .findFirst()
            .orElseThrow();
    Path lost = newest.resolve(written.relativePath()).normalize();
    Files.delete(lost);

    // when
    List<String> skipped = new ArrayList<>();
    CompletedCheckpoint restored =
        CheckpointLoader.load(jobDirectory, (location, reason) -> skipped.add(reason));

    // then
    assertThat(skipped)
        .anySatisfy(reason -> assertThat(reason).contains(lost.toString(), "missing"));
    assertThat(restored.location()).isEqualTo(checkpoints.get(1));
  }

  @Test
  void when_aTaskFailsMidRun_then_theRestartCountsOnFromTheCheckpointInRocksDb() throws Exception {
    // given: a running count per key whose map fails once, after some checkpoints
    FAIL_ONCE.set(true);
    StreamEnvironment env = StreamEnvironment.getExecutionEnvironment().setParallelism(2);
    env.setStateBackend(StateBackends.rocksdb());
    env.enableCheckpointing(Duration.ofMillis(100));
    env.setRestartStrategy(RestartStrategy.fixedDelay(3, Duration.ofMillis(100)));
    env.addSource(new GeneratorSource<>(20_000, index -> index, 10_000))
        .setParallelism(1)
        .uid("source")
        .map(new FailOnce())
        .uid("fail-once")
        .keyBy(index -> index % 10)
        .map(new RunningCount())
        .uid("count")
        .addSink(new Collect())
        .uid("sink");

    // when
    JobResult result = env.execute("restart");

    // then: every key counted each of its 2,000 records once in state
    assertThat(result.restarts()).isEqualTo(1);
    assertThat(new ArrayList<>(RESULTS).stream().mapToLong(Long::longValue).max().orElse(0))
        .isEqualTo(2_000);
    assertThat(RESULTS.stream().filter(count -> count == 2_000)).hasSize(10);
  }

  /** Whether {@link FailOnce} still has to fail; static as functions are copied. */
  static final AtomicBoolean FAIL_ONCE = new AtomicBoolean();

  static final class FailOnce implements MapFunction<Long, Long> {
    @Override
    public Long map(Long index) {
      if (index == 12_000 && FAIL_ONCE.compareAndSet(true, false)) {
        throw new IllegalStateException("failing once, as planned");
      }
      return index;
    }
  }

  /** Emits each key's count after each of its records, as the count in RocksDB says. */
  static final class RunningCount extends RichMapFunction<Long, Long> {
    private transient ValueState<Long> count;

    @Override
    public void open() {
      count = getRuntimeContext().getState(new ValueStateDescriptor<>("count"));
    }

    @Override
    public Long map(Long index) {
      Long current = count.value();
      long next = current == null ? 1 : current + 1;
      count.update(next);
      return next;
    }
  }

  private static List<Long> windowSums(StateBackend backend, Path checkpoints) throws Exception {
    RESULTS.clear();
    StreamEnvironment env = StreamEnvironment.getExecutionEnvironment().setParallelism(2);
    env.setStateBackend(backend);
    env.enableCheckpointing(Duration.ofMillis(100));
    if (checkpoints != null) {
      env.setCheckpointDirectory(checkpoints);
      env.config().retainedCheckpoints(2);
    }
    env.addSource(new GeneratorSource<>(20_000, index -> index, 20_000))
        .setParallelism(1)
        .uid("source")
        .assignTimestampsAndWatermarks(
            WatermarkStrategy.<Long>forMonotonousTimestamps().withTimestampAssigner((i, t) -> i))
        .keyBy(index -> index % 7)
        .window(TumblingEventTimeWindows.of(Duration.ofMillis(500)))
        .reduce(Long::sum)
        .uid("windows")
        .addSink(new Collect())
        .uid("sink");
    env.execute("windows");
    List<Long> sums = new ArrayList<>(RESULTS);
    sums.sort(null);
    return sums;
  }

  static final class Collect implements SinkFunction<Long> {
    @Override
    public void invoke(Long value, Context context) {
      RESULTS.add(value);
    }
  }
}
