package io.weir.cli.cluster;

import io.weir.cli.error.DataLossExit;
import io.weir.cli.error.UserError;
import io.weir.cluster.rpc.ClientMessages.JobStatus;
import io.weir.cluster.rpc.JobSubmission;
import java.time.Duration;

/** Submits a job to the cluster for {@code weir run --jobmanager}; waits unless detached. */
public final class ClusterSubmit {
  private static final Duration POLL = Duration.ofMillis(500);

  private ClusterSubmit() {}

  public static void submit(ClusterOptions cluster, JobSubmission submission, boolean detached) {
    submit(cluster, submission, null, detached);
  }

  /**
   * @param jar the bytes of the submission's jar, or null when it names none
   */
  public static void submit(
      ClusterOptions cluster, JobSubmission submission, byte[] jar, boolean detached) {
    JobStatus job = ClusterRequest.run(cluster, client -> client.submit(submission, jar));
    System.out.println("submitted job " + job.jobId() + " '" + job.jobName() + "'");
    if (job.message() != null) {
      System.out.println("job " + job.jobId() + ": " + job.message());
    }
    if (detached) {
      return;
    }
    JobProgressLine progress = new JobProgressLine(System.err);
    while (!job.isTerminal()) {
      try {
        Thread.sleep(POLL.toMillis());
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        return;
      }
      String jobId = job.jobId();
      job = ClusterRequest.run(cluster, client -> client.job(jobId));
      progress.maybePrint(job);
    }
    if (!job.state().equals("FINISHED")) {
      throw new UserError("Job " + job.jobId() + " " + job.state() + ": " + job.message());
    }
    DataLossExit.failIfLost(job.jobName(), job.acceptedDataLoss());
    System.out.printf(
        "job '%s' finished: %d restarts, last checkpoint %s%s%n",
        job.jobName(),
        job.restarts(),
        job.lastCheckpointId() < 0 ? "none" : "chk-" + job.lastCheckpointId(),
        job.deadLetterRecords() > 0 ? ", dead-letters=" + job.deadLetterRecords() : "");
  }
}
