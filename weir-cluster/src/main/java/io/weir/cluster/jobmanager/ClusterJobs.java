package io.weir.cluster.jobmanager;

import io.weir.cluster.rpc.ClientMessages.JobStatus;
import io.weir.runtime.execution.RecoveryViews;
import io.weir.runtime.execution.TaskViews;
import io.weir.runtime.graph.JobGraph;
import io.weir.runtime.jobmaster.JobAttempt;
import io.weir.runtime.monitor.CheckpointTimeline;
import io.weir.runtime.monitor.CheckpointTimelines;
import io.weir.runtime.monitor.JobDetail;
import io.weir.runtime.monitor.JobMonitor;
import io.weir.runtime.monitor.JobOverview;
import io.weir.runtime.monitor.RecoveryView;
import io.weir.runtime.monitor.TaskView;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * The job manager's jobs as the dashboard and metrics see them. Subtask figures (records, blocked
 * time, watermark, a sink's transactions) and each subtask's last few checkpoint traces (barrier,
 * alignment, its operators' notifications) come with each task manager's heartbeat, in the model a
 * local run reads directly; the job manager adds what it saw itself (trigger, acknowledgements,
 * {@code _metadata}, notifications).
 */
public final class ClusterJobs implements JobMonitor {
  private final JobManager jobManager;

  ClusterJobs(JobManager jobManager) {
    this.jobManager = jobManager;
  }

  @Override
  public List<JobOverview> jobs() {
    List<JobOverview> jobs = new ArrayList<>();
    for (ClusterJob job : jobManager.jobs()) {
      JobStatus status = job.status();
      jobs.add(
          new JobOverview(
              status.jobId(),
              status.jobName(),
              status.state(),
              status.startMillis(),
              status.lastCheckpointId() < 0 ? null : status.lastCheckpointId()));
    }
    return jobs;
  }

  @Override
  public Optional<JobDetail> job(String jobId) {
    return find(jobId)
        .map(
            job -> {
              JobStatus status = job.status();
              List<TaskView> tasks = TaskViews.ofFigures(job.graph(), job.subtaskFigures());
              JobAttempt attempt = job.current();
              return new JobDetail(
                  status.jobId(),
                  status.jobName(),
                  status.state(),
                  status.startMillis(),
                  attempt == null ? 0 : attempt.number(),
                  status.restarts(),
                  status.message(),
                  status.deadLetterRecords(),
                  tasks);
            });
  }

  @Override
  public Optional<List<CheckpointTimeline>> checkpoints(String jobId) {
    return find(jobId)
        .map(
            job ->
                new CheckpointTimelines(job.graph())
                    .of(job.checkpointHistory(), job.checkpointTraces()));
  }

  @Override
  public Optional<RecoveryView> recovery(String jobId) {
    return find(jobId)
        .map(
            job -> {
              JobStatus status = job.status();
              return RecoveryViews.of(
                  job.current(), status.restarts(), status.message(), job.recoveredTransactions());
            });
  }

  @Override
  public Optional<JobGraph> graph(String jobId) {
    return find(jobId).map(ClusterJob::graph);
  }

  private Optional<ClusterJob> find(String jobId) {
    return Optional.ofNullable(jobManager.job(jobId));
  }
}
