package io.weir.runtime.execution;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.weir.api.datastream.JobExecutionException;
import io.weir.api.datastream.JobExecutor;
import io.weir.api.datastream.JobResult;
import io.weir.api.datastream.RestartStrategy;
import io.weir.api.datastream.StreamEnvironment;
import io.weir.runtime.failpoint.FailpointNames;
import io.weir.runtime.graph.JobGraphBuilder;
import java.time.Clock;
import java.time.Duration;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.stream.LongStream;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * Two jobs in one JVM, one with a failpoint armed, run at once: each has its own failpoints, so the
 * armed one fails at its failpoint and counts only its own hits, and the other finishes clean.
 */
@Timeout(60)
class FailpointsPerJobTest {
  private static final long RECORDS = 5_000;

  private final LocalJobs jobs = new LocalJobs();
  private final Map<String, LocalJob> started = new ConcurrentHashMap<>();
  // One thread per job: the environment's context is the thread's.
  private final ExecutorService runners = Executors.newFixedThreadPool(2);

  @AfterEach
  void stopRunners() {
    runners.shutdownNow();
  }

  @Test
  void when_oneOfTwoJobsArmsAFailpoint_then_onlyThatJobHitsIt() throws Exception {
    // given: the armed job throws at its first snapshot and does not restart
    CompletableFuture<JobResult> armed =
        runAsync("armed", FailpointNames.TASK_SNAPSHOT_AFTER + "=throw");
    CompletableFuture<JobResult> clean = runAsync("clean", null);

    // when
    JobResult cleanResult = clean.get();

    // then: the clean job passed its own snapshots (its final checkpoint at least) unharmed
    assertThat(cleanResult.completedCheckpoints()).isGreaterThanOrEqualTo(1);
    assertThat(CollectSink.<Long>results("clean"))
        .containsExactlyInAnyOrderElementsOf(LongStream.range(0, RECORDS).boxed().toList());
    assertThat(hitsOf("clean")).isZero();
    // and the armed job failed at its failpoint, having counted its single subtask's hit alone
    assertThatThrownBy(armed::get)
        .isInstanceOf(ExecutionException.class)
        .hasCauseInstanceOf(JobExecutionException.class)
        .hasStackTraceContaining("failpoint " + FailpointNames.TASK_SNAPSHOT_AFTER + " hit");
    assertThat(hitsOf("armed")).isEqualTo(1);
  }

  private int hitsOf(String jobName) {
    return started.get(jobName).driver().failpoints().hits(FailpointNames.TASK_SNAPSHOT_AFTER);
  }

  private CompletableFuture<JobResult> runAsync(String jobName, String failpoints) {
    CompletableFuture<JobResult> result = new CompletableFuture<>();
    runners.execute(
        () -> {
          StreamEnvironment.setContext(new StreamEnvironment.Context(recording(), config -> {}));
          try {
            StreamEnvironment env = StreamEnvironment.getExecutionEnvironment();
            env.enableCheckpointing(Duration.ofMillis(20));
            env.config().restartStrategy(RestartStrategy.none()).failpoints(failpoints);
            env.fromGenerator(RECORDS, i -> i).addSink(new CollectSink<>(jobName));
            result.complete(env.execute(jobName));
          } catch (Throwable t) {
            result.completeExceptionally(t);
          } finally {
            StreamEnvironment.clearContext();
          }
        });
    return result;
  }

  /** Runs jobs here as a local run does, keeping each so its failpoints can be read after. */
  private JobExecutor recording() {
    return plan -> {
      LocalJob job = jobs.add(JobGraphBuilder.build(plan), Clock.systemUTC());
      started.put(job.driver().graph().jobName(), job);
      return job.run();
    };
  }
}
