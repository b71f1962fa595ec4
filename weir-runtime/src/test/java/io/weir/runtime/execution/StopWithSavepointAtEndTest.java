package io.weir.runtime.execution;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.weir.api.datastream.JobClient;
import io.weir.api.datastream.StreamEnvironment;
import io.weir.runtime.checkpoint.storage.CheckpointLoader;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.stream.LongStream;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * A stop-with-savepoint that meets the end of a bounded input, in each order: the stop's barrier
 * before the sources' end (the job stops with the savepoint), after it but before every subtask
 * finished its data (the savepoint holds everything and the job stops with it), and after every
 * subtask finished while the final checkpoint is in flight (the job finishes, the stop fails at
 * once). Each record is committed exactly once, counted against the input.
 */
@Timeout(120)
class StopWithSavepointAtEndTest {
  private static final int PARALLELISM = 2;
  private static final long PER_READER = 100;
  private static final Duration AT_ONCE = Duration.ofSeconds(5);

  @TempDir Path dir;

  @BeforeEach
  void reset() {
    EndingSequenceSource.reset();
    GatedTwoPhaseSink.reset();
  }

  @AfterEach
  void openGates() {
    // A failed test leaves no job waiting at a gate.
    GatedTwoPhaseSink.recordGate.countDown();
    GatedTwoPhaseSink.snapshotGate.countDown();
  }

  private JobClient start(boolean endAfterSnapshot) throws Exception {
    return environment(endAfterSnapshot).executeAsync("stop-at-end");
  }

  private StreamEnvironment environment(boolean endAfterSnapshot) {
    StreamEnvironment env = StreamEnvironment.getExecutionEnvironment().setParallelism(PARALLELISM);
    env.setCheckpointDirectory(dir.resolve("checkpoints"));
    // A reader's ids go out in one batch a target, with its end or the stop's barrier: a sink
    // holding its first record leaves room in its gate for that batch, not for the many small
    // ones a buffer timeout flushes on a busy machine, behind which a reader's end or barrier
    // would wait.
    env.config().bufferTimeout(Duration.ofMinutes(10));
    env.addSource(new EndingSequenceSource(PER_READER, endAfterSnapshot))
        .uid("sequence")
        .rebalance()
        .addSink(new GatedTwoPhaseSink())
        .uid("gated");
    return env;
  }

  @Test
  void when_stopBarrierReachesSourcesBeforeTheirEnd_then_jobStopsAndRestoreEndsWithoutRereading()
      throws Exception {
    // given: every reader emitted its ids and holds its end until it is snapshot
    JobClient client = start(true);
    await().atMost(Duration.ofSeconds(30)).until(() -> EndingSequenceSource.HOLDING.get() == 2);

    // when
    Path savepoint = client.stopWithSavepoint(dir.resolve("savepoint")).get(30, TimeUnit.SECONDS);

    // then: the job stopped with the savepoint, no reader reached its end
    client.awaitResult();
    assertThat(CheckpointLoader.load(savepoint).savepoint()).isTrue();
    assertThat(EndingSequenceSource.ENDS).hasValue(0);
    assertCommittedExactlyOnce();

    // and when: a job restores from it
    restoreFrom(savepoint);

    // then: its readers end at once, nothing is read or committed twice
    assertThat(EndingSequenceSource.ENDS).hasValue(PARALLELISM);
    assertCommittedExactlyOnce();
  }

  @Test
  void when_sourcesEndedBeforeStopBarrierAndSinksFinishAfter_then_jobStopsWithTheSavepoint()
      throws Exception {
    // given: both readers ended, the sinks hold their first record
    GatedTwoPhaseSink.recordGate = new CountDownLatch(1);
    JobClient client = start(false);
    await().atMost(Duration.ofSeconds(30)).until(() -> EndingSequenceSource.ENDS.get() == 2);

    // when: the stop's barrier passes the ended sources, and then the sinks finish their data
    CompletableFuture<Path> stop = client.stopWithSavepoint(dir.resolve("savepoint"));
    await().atMost(Duration.ofSeconds(30)).until(() -> EndingSequenceSource.SNAPSHOTS.get() == 2);
    GatedTwoPhaseSink.recordGate.countDown();

    // then: the savepoint holds everything; no final checkpoint was taken beside it
    Path savepoint = stop.get(30, TimeUnit.SECONDS);
    client.awaitResult();
    long savepointId = CheckpointLoader.load(savepoint).checkpointId();
    assertThat(GatedTwoPhaseSink.SNAPSHOTS).containsOnly(savepointId);
    assertCommittedExactlyOnce();

    // and when: a job restores from it, then nothing is read or committed twice
    restoreFrom(savepoint);
    assertCommittedExactlyOnce();
  }

  @Test
  void when_stopSavepointAbortedAfterEverySubtaskFinished_then_jobFinishesWithFinalCheckpoint()
      throws Exception {
    // given: both readers ended, the sinks hold their first record, one sink declines a checkpoint
    GatedTwoPhaseSink.recordGate = new CountDownLatch(1);
    GatedTwoPhaseSink.DECLINES.set(1);
    JobClient client = start(false);
    await().atMost(Duration.ofSeconds(30)).until(() -> EndingSequenceSource.ENDS.get() == 2);

    // when: the stop's barrier passes the ended sources, and the sinks finish their data
    CompletableFuture<Path> stop = client.stopWithSavepoint(dir.resolve("savepoint"));
    await().atMost(Duration.ofSeconds(30)).until(() -> EndingSequenceSource.SNAPSHOTS.get() == 2);
    GatedTwoPhaseSink.recordGate.countDown();

    // then: the stop fails, and the final checkpoint taken instead commits everything
    assertThat(stop)
        .failsWithin(Duration.ofSeconds(30))
        .withThrowableOfType(ExecutionException.class)
        .withMessageContaining("The savepoint failed");
    client.awaitResult();
    // The sinks took part in two checkpoints: the aborted savepoint and the final checkpoint.
    assertThat(Set.copyOf(GatedTwoPhaseSink.SNAPSHOTS)).hasSize(2);
    assertCommittedExactlyOnce();
  }

  @Test
  void when_stopRequestedWhileFinalCheckpointInFlight_then_stopFailsAtOnceAndJobFinishes()
      throws Exception {
    // given: every subtask finished its data, and the final checkpoint waits at the sinks
    GatedTwoPhaseSink.snapshotGate = new CountDownLatch(1);
    JobClient client = start(false);
    await().atMost(Duration.ofSeconds(30)).until(() -> !GatedTwoPhaseSink.SNAPSHOTS.isEmpty());

    // when
    CompletableFuture<Path> stop = client.stopWithSavepoint(dir.resolve("savepoint"));

    // then: the stop fails at once, with a line saying why; the job finishes on its own
    assertThat(stop)
        .failsWithin(AT_ONCE)
        .withThrowableOfType(ExecutionException.class)
        .withMessageContaining("finished before it could stop with a savepoint");
    GatedTwoPhaseSink.snapshotGate.countDown();
    client.awaitResult();
    assertThat(GatedTwoPhaseSink.SNAPSHOTS).hasSize(PARALLELISM);
    assertThat(dir.resolve("savepoint"))
        .satisfiesAnyOf(
            path -> assertThat(path).doesNotExist(),
            path -> assertThat(Files.list(path)).isEmpty());
    assertCommittedExactlyOnce();
  }

  private void restoreFrom(Path savepoint) throws Exception {
    StreamEnvironment env = environment(false);
    env.fromCheckpoint(savepoint);
    env.execute("stop-at-end");
  }

  private static void assertCommittedExactlyOnce() {
    assertThat(GatedTwoPhaseSink.committedRecords())
        .containsExactlyInAnyOrderElementsOf(
            LongStream.range(0, PARALLELISM * PER_READER).boxed().toList());
  }
}
