package io.weir.runtime.execution;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

import io.weir.api.datastream.JobClient;
import io.weir.api.datastream.JobExecutionException;
import io.weir.api.datastream.StreamEnvironment;
import io.weir.api.sink.SinkFunction;
import io.weir.api.source.GeneratorSource;
import io.weir.runtime.checkpoint.storage.CheckpointLayout;
import io.weir.runtime.graph.JobGraph;
import io.weir.runtime.graph.JobGraphBuilder;
import io.weir.runtime.jobmaster.CheckpointStorages;
import io.weir.runtime.jobmaster.OperatorInfos;
import io.weir.runtime.sink.file.FileSink;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * What a job resumes from without {@code -s}: the newest of its checkpoints and recorded
 * savepoints; and no silent fallback past a broken newest checkpoint with a two-phase-commit sink.
 */
@Timeout(120)
class ResumeChoiceTest {
  private static final int RECORDS = 20_000;

  @TempDir Path dir;

  private StreamEnvironment environment(String jobName, long rate, SinkFunction<Long> sink) {
    StreamEnvironment env = StreamEnvironment.getExecutionEnvironment().setParallelism(1);
    env.enableCheckpointing(Duration.ofMillis(100));
    env.setCheckpointDirectory(dir.resolve("checkpoints"));
    env.config().retainedCheckpoints(2);
    env.addSource(new GeneratorSource<>(RECORDS, i -> i, rate))
        .uid("numbers")
        .map(i -> i)
        .uid("identity")
        .addSink(sink)
        .uid("sink");
    return env;
  }

  @Test
  void when_resubmittedAfterStopWithSavepoint_then_itResumesFromTheSavepointNotTheOlderCheckpoint()
      throws Exception {
    // given: a job stopped with a savepoint, with older checkpoints in its directory
    JobClient client =
        environment("newest", 4_000, new CollectSink<>("newest-before")).executeAsync("newest");
    await()
        .atMost(Duration.ofSeconds(30))
        .until(() -> CollectSink.<Long>results("newest-before").size() > 2_000);
    Path savepoint = client.stopWithSavepoint(dir.resolve("savepoint")).get(60, TimeUnit.SECONDS);
    client.awaitResult();
    assertThat(CheckpointLayout.checkpointDirectoriesNewestFirst(dir.resolve("checkpoints/newest")))
        .isNotEmpty();

    // when: the job is submitted again without -s
    environment("newest", 0, new CollectSink<>("newest-after")).execute("newest");

    // then: it resumed from the savepoint, so no record is emitted twice
    List<Long> all = new ArrayList<>(CollectSink.<Long>results("newest-before"));
    all.addAll(CollectSink.<Long>results("newest-after"));
    assertThat(all).hasSize(RECORDS).doesNotHaveDuplicates();
    assertThat(
            Files.readString(
                dir.resolve("checkpoints/newest/savepoints").toFile().listFiles()[0].toPath()))
        .isEqualTo(savepoint.toString());
  }

  @Test
  void when_newestCheckpointBrokenWithTwoPhaseCommitSink_then_fallbackIsRefusedUnlessAllowed()
      throws Exception {
    // given: a finished job with a two-phase-commit sink whose newest checkpoint is corrupt
    Path output = dir.resolve("out");
    environment("refuse", 40_000, FileSink.<Long>forDirectory(output).build()).execute("refuse");
    List<Path> checkpoints =
        CheckpointLayout.checkpointDirectoriesNewestFirst(dir.resolve("checkpoints/refuse"));
    assertThat(checkpoints).hasSize(2);
    corrupt(checkpoints.get(0));

    // when: it is submitted again without -s, then: one line naming both and the choices
    assertThatThrownBy(
            () ->
                environment("refuse", 0, FileSink.<Long>forDirectory(output).build())
                    .execute("refuse"))
        .isInstanceOf(JobExecutionException.class)
        .hasMessageContaining("the newest checkpoint " + idOf(checkpoints.get(0)) + " at ")
        .hasMessageContaining("is broken (")
        .hasMessageContaining("'Sink'")
        .hasMessageContaining(
            "falling back to its latest completed checkpoint " + idOf(checkpoints.get(1)))
        .hasMessageContaining("-s " + checkpoints.get(1))
        .hasMessageContaining("--allow-fallback")
        .hasMessageNotContaining("\n");

    // and when: the fallback is allowed, then the job resumes from the older checkpoint
    StreamEnvironment allowed =
        environment("refuse", 0, FileSink.<Long>forDirectory(output).build());
    allowed.config().allowFallback(true);
    JobGraph graph = JobGraphBuilder.build(allowed.plan("refuse"));
    CheckpointStorages.InitialRestore restore =
        CheckpointStorages.initialRestore(
            graph, CheckpointStorages.forJob(allowed.config(), "refuse"), OperatorInfos.of(graph));
    assertThat(restore.checkpoint().checkpointId()).isEqualTo(idOf(checkpoints.get(1)));
  }

  @Test
  void when_newestCheckpointBrokenWithoutTwoPhaseCommitSink_then_itFallsBackWithAWarning()
      throws Exception {
    // given: a finished job without a two-phase-commit sink whose newest checkpoint is corrupt
    environment("warn", 40_000, new CollectSink<>("warn-first")).execute("warn");
    List<Path> checkpoints =
        CheckpointLayout.checkpointDirectoriesNewestFirst(dir.resolve("checkpoints/warn"));
    corrupt(checkpoints.get(0));

    // when
    StreamEnvironment again = environment("warn", 0, new CollectSink<>("warn-again"));
    JobGraph graph = JobGraphBuilder.build(again.plan("warn"));
    CheckpointStorages.InitialRestore restore =
        CheckpointStorages.initialRestore(
            graph, CheckpointStorages.forJob(again.config(), "warn"), OperatorInfos.of(graph));

    // then
    assertThat(restore.checkpoint().checkpointId()).isEqualTo(idOf(checkpoints.get(1)));
    assertThat(restore.description()).startsWith("resuming from its latest completed checkpoint");
  }

  /** Overwrites the checkpoint's metadata: it completed, and is broken now. */
  private static void corrupt(Path checkpoint) throws Exception {
    Path metadata = checkpoint.resolve("_metadata");
    byte[] bytes = Files.readAllBytes(metadata);
    bytes[bytes.length / 2] ^= 0x5A;
    Files.write(metadata, bytes);
  }

  private static long idOf(Path checkpoint) {
    return CheckpointLayout.checkpointIdOf(checkpoint).getAsLong();
  }
}
