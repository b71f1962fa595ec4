package io.weir.runtime.checkpoint;

import static org.assertj.core.api.Assertions.assertThat;

import io.weir.api.datastream.JobResult;
import io.weir.api.datastream.RestartStrategy;
import io.weir.api.datastream.StreamEnvironment;
import java.time.Duration;
import java.util.List;
import java.util.stream.LongStream;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * A two-phase-commit sink whose commit throws fails its task; the restore commits the transactions
 * pending in the checkpoint again, so nothing is lost or doubled, and checkpoint ids go on growing
 * across the restart.
 */
@Timeout(60)
class CommitFailureTest {
  private static final long RECORDS = 3_000;

  @BeforeEach
  void reset() {
    RecordingTwoPhaseSink.reset();
  }

  @Test
  void when_commitThrowsOnce_then_restoreCommitsEveryRecordOnce() throws Exception {
    // given
    RecordingTwoPhaseSink.COMMIT_FAILURES.set(1);
    StreamEnvironment env = StreamEnvironment.getExecutionEnvironment().setParallelism(2);
    // Each run starts from scratch: its checkpoints die with it, none is resumed.
    env.config().checkpointsInMemory(true);
    env.enableCheckpointing(Duration.ofMillis(50));
    env.setRestartStrategy(RestartStrategy.fixedDelay(3, Duration.ZERO));
    env.addSource(new SplitSequenceSource("source", 0, RECORDS, 4, 3_000))
        .uid("source")
        .addSink(new RecordingTwoPhaseSink())
        .uid("sink");

    // when
    JobResult result = env.execute("commit-failure");

    // then
    assertThat(result.restarts()).isEqualTo(1);
    assertThat(RecordingTwoPhaseSink.COMMIT_FAILURES.get()).isZero();
    assertThat(RecordingTwoPhaseSink.committedRecords())
        .containsExactlyInAnyOrderElementsOf(LongStream.range(0, RECORDS).boxed().toList());
  }

  @Test
  void when_jobRestarts_then_sinkSeesStrictlyGrowingCheckpointIds() throws Exception {
    // given: one subtask, so one sequence of ids
    RecordingTwoPhaseSink.COMMIT_FAILURES.set(2);
    StreamEnvironment env = StreamEnvironment.getExecutionEnvironment();
    // Each run starts from scratch: its checkpoints die with it, none is resumed.
    env.config().checkpointsInMemory(true);
    env.enableCheckpointing(Duration.ofMillis(30));
    env.setRestartStrategy(RestartStrategy.fixedDelay(3, Duration.ZERO));
    env.addSource(new SplitSequenceSource("source", 0, RECORDS, 1, 6_000))
        .addSink(new RecordingTwoPhaseSink());

    // when
    JobResult result = env.execute("growing-ids");

    // then
    assertThat(result.restarts()).isEqualTo(2);
    List<Long> snapshots = List.copyOf(RecordingTwoPhaseSink.SNAPSHOTS);
    List<Long> notified = RecordingTwoPhaseSink.NOTIFICATIONS.stream().map(n -> n[0]).toList();
    assertThat(snapshots).hasSizeGreaterThan(3).isSorted().doesNotHaveDuplicates();
    assertThat(notified).isNotEmpty().isSorted().doesNotHaveDuplicates();
    assertThat(RecordingTwoPhaseSink.committedRecords()).hasSize((int) RECORDS);
  }
}
