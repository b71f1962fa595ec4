package io.weir.runtime.execution;

import io.weir.runtime.checkpoint.CompletedCheckpoint;
import io.weir.runtime.checkpoint.SubtaskKey;
import io.weir.runtime.graph.JobGraph;
import io.weir.runtime.monitor.CheckpointTimeline;
import io.weir.runtime.monitor.CheckpointTimelines;
import io.weir.runtime.monitor.JobDetail;
import io.weir.runtime.monitor.JobMonitor;
import io.weir.runtime.monitor.JobOverview;
import io.weir.runtime.monitor.RecoveryView;
import io.weir.runtime.monitor.SubtaskCheckpointTrace;
import io.weir.runtime.task.StreamTask;
import java.time.Clock;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * The jobs run in this JVM, as the job manager inside a local run shows them to the dashboard and
 * metrics. Ids are {@code local-1}, {@code local-2}, ... in order of start. Thread safe.
 */
public final class LocalJobs implements JobMonitor {
  private final List<JobRun> runs = new CopyOnWriteArrayList<>();
  private final AtomicInteger nextId = new AtomicInteger(1);

  JobRun add(JobGraph graph, Clock clock) {
    JobRun run = new JobRun(graph, clock, "local-" + nextId.getAndIncrement());
    runs.add(run);
    return run;
  }

  @Override
  public List<JobOverview> jobs() {
    List<JobOverview> jobs = new ArrayList<>();
    for (JobRun run : runs) {
      jobs.add(
          new JobOverview(
              run.jobId(),
              run.graph().jobName(),
              run.status().name(),
              run.startMillis(),
              lastCompleted(run)));
    }
    return jobs;
  }

  @Override
  public Optional<JobDetail> job(String jobId) {
    return find(jobId)
        .map(
            run -> {
              ExecutionAttempt attempt = run.current();
              List<StreamTask> tasks = attempt == null ? List.of() : attempt.tasks();
              return new JobDetail(
                  run.jobId(),
                  run.graph().jobName(),
                  run.status().name(),
                  run.startMillis(),
                  attempt == null ? 0 : attempt.number(),
                  run.restarts(),
                  run.lastFailure(),
                  TaskViews.of(run.graph(), tasks));
            });
  }

  @Override
  public Optional<List<CheckpointTimeline>> checkpoints(String jobId) {
    return find(jobId)
        .map(
            run -> {
              Map<SubtaskKey, List<SubtaskCheckpointTrace>> traces = new HashMap<>();
              ExecutionAttempt attempt = run.current();
              if (attempt != null) {
                for (StreamTask task : attempt.tasks()) {
                  traces.put(
                      new SubtaskKey(
                          task.deployment().vertex().id(), task.deployment().subtaskIndex()),
                      task.metrics().traces());
                }
              }
              return new CheckpointTimelines(run.graph()).of(run.history().newestFirst(), traces);
            });
  }

  @Override
  public Optional<RecoveryView> recovery(String jobId) {
    return find(jobId)
        .map(
            run -> {
              CompletedCheckpoint restored = run.restoredFrom();
              ExecutionAttempt attempt = run.current();
              return new RecoveryView(
                  restored == null ? "nothing" : restored.savepoint() ? "savepoint" : "checkpoint",
                  restored == null ? null : restored.checkpointId(),
                  restored == null || restored.location() == null
                      ? null
                      : restored.location().toString(),
                  attempt == null ? 0 : attempt.number(),
                  run.restarts(),
                  run.lastFailure());
            });
  }

  @Override
  public Optional<JobGraph> graph(String jobId) {
    return find(jobId).map(JobRun::graph);
  }

  private Optional<JobRun> find(String jobId) {
    return runs.stream().filter(run -> run.jobId().equals(jobId)).findFirst();
  }

  private static Long lastCompleted(JobRun run) {
    return run.history().newestFirst().stream()
        .filter(
            stats -> stats.status() == io.weir.runtime.checkpoint.CheckpointStats.Status.COMPLETED)
        .map(stats -> stats.checkpointId())
        .findFirst()
        .orElse(null);
  }
}
