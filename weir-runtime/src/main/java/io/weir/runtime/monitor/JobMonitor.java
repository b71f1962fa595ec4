package io.weir.runtime.monitor;

import io.weir.runtime.graph.JobGraph;
import java.util.List;
import java.util.Optional;

/**
 * A read-only window on the jobs of one job manager (a cluster's, or the one inside a local run),
 * for the REST API, the dashboard and metrics.
 *
 * <p>Called from any thread, concurrently, at the pace of requests and scrapes (not per record).
 * Every method returns a fresh snapshot and never blocks on a job's progress: figures are read
 * without stopping the tasks, so two figures of one answer may be a few milliseconds apart. A job
 * id that the job manager does not know gives an empty result, never an exception.
 */
public interface JobMonitor {
  /** Every job this job manager knows, in submission order. */
  List<JobOverview> jobs();

  /** Tasks, chains, subtask counters, restarts and the last failure of one job. */
  Optional<JobDetail> job(String jobId);

  /** The job's recent checkpoints, newest first, each with every step of its protocol seen. */
  Optional<List<CheckpointTimeline>> checkpoints(String jobId);

  /** What the job's last start or restart restored from. */
  Optional<RecoveryView> recovery(String jobId);

  /** The job's graph, for views that look at its sources and sinks (Kafka). */
  Optional<JobGraph> graph(String jobId);
}
