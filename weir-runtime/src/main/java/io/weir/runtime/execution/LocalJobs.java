package io.weir.runtime.execution;

import io.weir.api.datastream.JobExecutionException;
import io.weir.runtime.checkpoint.SubtaskKey;
import io.weir.runtime.failpoint.FailpointConfiguration;
import io.weir.runtime.gateway.RecordCounts;
import io.weir.runtime.graph.JobGraph;
import io.weir.runtime.jobmaster.DefaultCheckpointDirectory;
import io.weir.runtime.jobmaster.JobAttempt;
import io.weir.runtime.jobmaster.JobDriver;
import io.weir.runtime.jobmaster.JobState;
import io.weir.runtime.monitor.CheckpointTimeline;
import io.weir.runtime.monitor.CheckpointTimelines;
import io.weir.runtime.monitor.JobControl;
import io.weir.runtime.monitor.JobDetail;
import io.weir.runtime.monitor.JobMonitor;
import io.weir.runtime.monitor.JobOverview;
import io.weir.runtime.monitor.RecoveryView;
import io.weir.runtime.monitor.SubtaskCheckpointTrace;
import io.weir.runtime.task.StreamTask;
import java.nio.file.Path;
import java.time.Clock;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * The jobs run in this JVM, as the job manager inside a local run shows them to the dashboard and
 * metrics, and as the REST API stops them ({@code weir stop} and {@code weir cancel} against a
 * local run). Ids are {@code local-1}, {@code local-2}, ... in order of start. Thread safe.
 */
public final class LocalJobs implements JobMonitor, JobControl {
  private final List<LocalJob> runs = new CopyOnWriteArrayList<>();
  private final AtomicInteger nextId = new AtomicInteger(1);

  /**
   * @throws JobExecutionException with one line when another run holds the lease of the job's
   *     checkpoint directory
   */
  LocalJob add(JobGraph graph, Clock clock) throws JobExecutionException {
    // A job that arms no failpoints of its own gets those of the process (the lab arms them so).
    FailpointConfiguration.applyProcessConfiguration(graph.config());
    DefaultCheckpointDirectory.maybeApply(graph);
    LocalJob run = new LocalJob("local-" + nextId.getAndIncrement(), graph, clock);
    runs.add(run);
    return run;
  }

  @Override
  public List<JobOverview> jobs() {
    List<JobOverview> jobs = new ArrayList<>();
    for (LocalJob run : runs) {
      JobDriver driver = run.driver();
      jobs.add(
          new JobOverview(
              driver.jobId(),
              driver.graph().jobName(),
              driver.state().name(),
              driver.startMillis(),
              lastCompleted(driver)));
    }
    return jobs;
  }

  @Override
  public Optional<JobDetail> job(String jobId) {
    return find(jobId)
        .map(
            run -> {
              JobDriver driver = run.driver();
              JobAttempt attempt = driver.current();
              return new JobDetail(
                  driver.jobId(),
                  driver.graph().jobName(),
                  driver.state().name(),
                  driver.startMillis(),
                  attempt == null ? 0 : attempt.number(),
                  driver.restarts(),
                  lastFailure(driver),
                  RecordCounts.of(run.tasks()).deadLetters(),
                  TaskViews.of(driver.graph(), run.tasks()));
            });
  }

  @Override
  public Optional<List<CheckpointTimeline>> checkpoints(String jobId) {
    return find(jobId)
        .map(
            run -> {
              Map<SubtaskKey, List<SubtaskCheckpointTrace>> traces = new HashMap<>();
              for (StreamTask task : run.tasks()) {
                traces.put(
                    new SubtaskKey(
                        task.deployment().vertex().id(), task.deployment().subtaskIndex()),
                    task.metrics().traces());
              }
              JobDriver driver = run.driver();
              return new CheckpointTimelines(driver.graph())
                  .of(driver.history().newestFirst(), traces);
            });
  }

  @Override
  public Optional<RecoveryView> recovery(String jobId) {
    return find(jobId)
        .map(
            run -> {
              JobDriver driver = run.driver();
              return RecoveryViews.of(
                  driver.current(),
                  driver.restarts(),
                  lastFailure(driver),
                  driver.recoveredTransactions());
            });
  }

  @Override
  public Optional<JobGraph> graph(String jobId) {
    return find(jobId).map(run -> run.driver().graph());
  }

  @Override
  public Optional<CompletableFuture<Path>> stopWithSavepoint(
      String jobId, Path directory, SavepointEnd end) {
    JobState endState = end == SavepointEnd.CANCEL ? JobState.CANCELED : JobState.FINISHED;
    return find(jobId).map(run -> run.driver().stopWithSavepoint(directory, endState));
  }

  @Override
  public Optional<CompletableFuture<String>> cancel(String jobId) {
    return find(jobId)
        .map(
            run -> {
              run.driver().cancel();
              return run.driver().ended().thenApply(JobState::name);
            });
  }

  private Optional<LocalJob> find(String jobId) {
    return runs.stream().filter(run -> run.driver().jobId().equals(jobId)).findFirst();
  }

  /** The failure of the last attempt, or why the job ended; not what a fresh job starts from. */
  private static String lastFailure(JobDriver driver) {
    if (driver.failure() != null) {
      return driver.failure().getMessage();
    }
    return driver.restarts() == 0 && driver.state() != JobState.FAILED ? null : driver.message();
  }

  private static Long lastCompleted(JobDriver driver) {
    return driver.history().newestFirst().stream()
        .filter(
            stats -> stats.status() == io.weir.runtime.checkpoint.CheckpointStats.Status.COMPLETED)
        .map(stats -> stats.checkpointId())
        .findFirst()
        .orElse(null);
  }
}
