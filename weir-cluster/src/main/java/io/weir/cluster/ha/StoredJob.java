package io.weir.cluster.ha;

import io.weir.cluster.rpc.JobSubmission;

/**
 * A job the leader must keep running, as the job store holds it.
 *
 * @param latestCheckpoint the directory of its latest completed checkpoint, or null before its
 *     first
 */
public record StoredJob(String jobId, JobSubmission submission, String latestCheckpoint) {
  /**
   * The submission a new leader runs: restoring the latest completed checkpoint, as a restart does,
   * or the original one before the first checkpoint completed.
   */
  public JobSubmission recoverySubmission() {
    if (latestCheckpoint == null) {
      return submission;
    }
    return new JobSubmission(
        submission.jobClass(),
        submission.args(),
        submission.parallelism(),
        submission.checkpointDirectory(),
        latestCheckpoint,
        false,
        submission.jar(),
        submission.allowFallback(),
        submission.acceptDataLoss(),
        submission.stateBackend());
  }
}
