package io.weir.runtime.execution;

import static org.assertj.core.api.Assertions.assertThat;

import io.weir.api.checkpoint.CheckpointListener;
import io.weir.api.datastream.JobExecutor;
import io.weir.api.datastream.JobResult;
import io.weir.api.datastream.RestartStrategy;
import io.weir.api.datastream.StreamEnvironment;
import io.weir.api.functions.MapFunction;
import io.weir.runtime.graph.JobGraphBuilder;
import io.weir.runtime.monitor.RecoveryView;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.stream.LongStream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * The recovery view explains the checkpoint an attempt restored for as long as the attempt runs,
 * also once newer checkpoints have deleted its files (a completed checkpoint keeps its state only
 * there).
 */
@Timeout(60)
class RestoredCheckpointViewTest {
  private static final long RECORDS = 2_000;
  private static final AtomicInteger FAILURE_BUDGET = new AtomicInteger();

  private final LocalJobs jobs = new LocalJobs();

  @TempDir Path checkpointRoot;

  @Test
  void when_restoredCheckpointIsDeletedByANewerOne_then_theRecoveryViewStillExplainsIt()
      throws Exception {
    // given: a job that fails once after its first completed checkpoint, keeping one checkpoint
    FAILURE_BUDGET.set(1);
    StreamEnvironment.setContext(new StreamEnvironment.Context(localRun(), config -> {}));
    JobResult result;
    try {
      StreamEnvironment env = StreamEnvironment.getExecutionEnvironment();
      env.enableCheckpointing(Duration.ofMillis(20));
      env.setCheckpointDirectory(checkpointRoot);
      env.config().retainedCheckpoints(1);
      env.setRestartStrategy(RestartStrategy.fixedDelay(1, Duration.ofMillis(10)));
      env.fromGenerator(RECORDS, i -> i)
          .map(new FailingOnceAfterACheckpoint())
          .uid("failing")
          .addSink(new CollectSink<>("restored-view"));

      // when: it restarts from that checkpoint and completes newer ones to its end
      result = env.execute("restored-view");
    } finally {
      StreamEnvironment.clearContext();
    }

    // then
    assertThat(result.restarts()).isEqualTo(1);
    assertThat(CollectSink.<Long>results("restored-view"))
        .containsAll(LongStream.range(0, RECORDS).boxed().toList());
    // A read of the restored checkpoint's state is kept only while someone holds it.
    System.gc();
    RecoveryView view = jobs.recovery(jobs.jobs().get(0).id()).orElseThrow();
    assertThat(view.checkpointId()).isNotNull();
    assertThat(Path.of(view.location()))
        .as("the restored checkpoint, deleted by a newer one")
        .doesNotExist();
    assertThat(view.explanation())
        .startsWith("checkpoint " + view.checkpointId() + " of job 'restored-view'")
        .contains("source offsets: ")
        .doesNotContain("cannot");
  }

  private JobExecutor localRun() {
    return plan -> jobs.add(JobGraphBuilder.build(plan), Clock.systemUTC()).run();
  }

  static final class FailingOnceAfterACheckpoint
      implements MapFunction<Long, Long>, CheckpointListener {
    private transient boolean checkpointCompleted;

    @Override
    public Long map(Long value) throws InterruptedException {
      // Slow enough for checkpoints to complete before the failure and after the restore.
      Thread.sleep(1);
      if (checkpointCompleted && FAILURE_BUDGET.getAndUpdate(left -> Math.max(0, left - 1)) > 0) {
        throw new IllegalStateException("injected failure after a completed checkpoint");
      }
      return value;
    }

    @Override
    public void notifyCheckpointComplete(long checkpointId) {
      checkpointCompleted = true;
    }
  }
}
