package io.weir.runtime.execution;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.weir.api.datastream.JobClient;
import io.weir.api.datastream.JobResult;
import io.weir.api.datastream.StreamEnvironment;
import io.weir.api.source.GeneratorSource;
import io.weir.runtime.checkpoint.storage.CheckpointLayout;
import io.weir.runtime.checkpoint.storage.CheckpointLoader;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/** Stop with savepoint of a local job: the job ends, and nothing after the barrier was emitted. */
@Timeout(120)
class StopWithSavepointTest {
  private static final int RECORDS = 30_000;

  private static void build(StreamEnvironment env, String sink, long rate) {
    env.addSource(new GeneratorSource<>(RECORDS, i -> i, rate))
        .uid("numbers")
        .rebalance()
        .map(i -> i)
        .uid("identity")
        .addSink(new CollectSink<>(sink))
        .uid("collect");
  }

  @Test
  void when_stoppedWithSavepoint_then_jobFinishesAndTheRestoredJobEmitsTheRestOnce(
      @TempDir Path dir) throws Exception {
    // given: a job emitting part of its input, with periodic checkpoints
    StreamEnvironment first = StreamEnvironment.getExecutionEnvironment().setParallelism(2);
    first.enableCheckpointing(Duration.ofMillis(200));
    first.setCheckpointDirectory(dir.resolve("checkpoints"));
    build(first, "stop-before", 5_000);
    JobClient client = first.executeAsync("stop");
    await()
        .atMost(Duration.ofSeconds(30))
        .until(() -> CollectSink.<Long>results("stop-before").size() > 2_000);

    // when: it stops with a savepoint
    Path savepoint = client.stopWithSavepoint(dir.resolve("savepoint")).get(60, TimeUnit.SECONDS);

    // then: it finished, took no checkpoint after the savepoint, and emits nothing more
    JobResult result = client.awaitResult();
    assertThat(result.jobName()).isEqualTo("stop");
    long savepointId = CheckpointLoader.load(savepoint).checkpointId();
    assertThat(CheckpointLoader.load(savepoint).savepoint()).isTrue();
    assertThat(CheckpointLayout.checkpointDirectoriesNewestFirst(dir.resolve("checkpoints/stop")))
        .allMatch(chk -> CheckpointLayout.checkpointIdOf(chk).getAsLong() < savepointId);
    int emitted = CollectSink.<Long>results("stop-before").size();
    assertThat(emitted).isLessThan(RECORDS);

    // and when: the job restores from the savepoint
    StreamEnvironment second = StreamEnvironment.getExecutionEnvironment().setParallelism(2);
    second.fromCheckpoint(savepoint);
    build(second, "stop-after", 0);
    second.execute("stop");

    // then: before and after hold every record exactly once
    List<Long> all = new ArrayList<>(CollectSink.<Long>results("stop-before"));
    all.addAll(CollectSink.<Long>results("stop-after"));
    assertThat(all).hasSize(RECORDS).doesNotHaveDuplicates();
  }
}
