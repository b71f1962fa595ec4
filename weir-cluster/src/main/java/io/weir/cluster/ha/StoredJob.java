package io.weir.cluster.ha;

import io.weir.cluster.rpc.JobSubmission;

/**
 * A job the leader must keep running, as the job store holds it.
 *
 * @param latestCheckpoint the directory of its latest completed checkpoint (or of the checkpoint or
 *     savepoint it started from), or null when it started from scratch and none completed yet
 */
public record StoredJob(String jobId, JobSubmission submission, String latestCheckpoint) {
  /**
   * The submission a new leader runs: restoring exactly the checkpoint the pointer names, as a
   * restart does; without a pointer (the job started from scratch, and no checkpoint of it
   * completed) from scratch again. Never the newest {@code _metadata} of the job's directory: a
   * leader deposed while frozen may have written one that no pointer names, and it is not restored.
   */
  public JobSubmission recoverySubmission() {
    return new JobSubmission(
        submission.jobClass(),
        submission.args(),
        submission.parallelism(),
        submission.checkpointDirectory(),
        latestCheckpoint,
        latestCheckpoint == null,
        submission.jar(),
        submission.allowFallback(),
        submission.acceptDataLoss(),
        submission.stateBackend());
  }
}
