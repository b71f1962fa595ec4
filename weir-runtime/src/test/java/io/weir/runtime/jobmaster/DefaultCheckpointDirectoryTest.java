package io.weir.runtime.jobmaster;

import static org.assertj.core.api.Assertions.assertThat;

import io.weir.api.datastream.StreamEnvironment;
import io.weir.api.sink.DiscardingSink;
import io.weir.api.source.GeneratorSource;
import io.weir.runtime.graph.JobGraph;
import io.weir.runtime.graph.JobGraphBuilder;
import io.weir.runtime.sink.file.FileSink;
import java.nio.file.Path;
import java.time.Duration;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Which jobs get the durable default checkpoint directory: those with a two-phase-commit sink that
 * name no directory and did not ask for checkpoints in memory.
 */
class DefaultCheckpointDirectoryTest {
  @TempDir Path directory;

  @Test
  void when_aTwoPhaseCommitSinkHasNoCheckpointDirectory_then_theJobGetsTheDefault() {
    // given
    JobGraph graph = graph(true);
    // when
    DefaultCheckpointDirectory.maybeApply(graph);
    // then
    assertThat(graph.config().checkpointDirectory()).isEqualTo(Path.of(".weir", "checkpoints"));
  }

  @Test
  void when_theJobAsksForCheckpointsInMemory_then_itKeepsThemThere() {
    // given
    JobGraph graph = graph(true);
    graph.config().checkpointsInMemory(true);
    // when
    DefaultCheckpointDirectory.maybeApply(graph);
    // then
    assertThat(graph.config().checkpointDirectory()).isNull();
  }

  @Test
  void when_theJobNamesACheckpointDirectory_then_itKeepsIt() {
    // given
    JobGraph graph = graph(true);
    graph.config().checkpointDirectory(directory.resolve("checkpoints"));
    // when
    DefaultCheckpointDirectory.maybeApply(graph);
    // then
    assertThat(graph.config().checkpointDirectory()).isEqualTo(directory.resolve("checkpoints"));
  }

  @Test
  void when_noSinkCommitsInTwoPhases_then_checkpointsStayInMemory() {
    // given
    JobGraph graph = graph(false);
    // when
    DefaultCheckpointDirectory.maybeApply(graph);
    // then
    assertThat(graph.config().checkpointDirectory()).isNull();
  }

  private JobGraph graph(boolean twoPhaseCommitSink) {
    StreamEnvironment env = StreamEnvironment.getExecutionEnvironment();
    env.enableCheckpointing(Duration.ofSeconds(1));
    var numbers = env.addSource(new GeneratorSource<>(10, i -> "n" + i));
    if (twoPhaseCommitSink) {
      numbers.addSink(FileSink.<String>forDirectory(directory.resolve("out")).build());
    } else {
      numbers.addSink(new DiscardingSink<>());
    }
    return JobGraphBuilder.build(env.plan("numbers"));
  }
}
