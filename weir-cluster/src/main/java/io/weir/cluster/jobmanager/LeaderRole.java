package io.weir.cluster.jobmanager;

import io.weir.cluster.ha.JobManagerHighAvailability;
import io.weir.cluster.ha.LeaderEpoch;

/**
 * What a job manager does when the election makes it leader (recover every stored job) and when it
 * loses the leadership: it abandons its jobs and stands by, in the election, to lead again. A
 * deposed leader's messages and writes are fenced by its epoch; abandoning its jobs also stops it
 * from triggering checkpoints or touching their files, which the new leader owns.
 */
final class LeaderRole implements JobManagerHighAvailability.LeadershipListener {
  private final JobManager jobManager;

  LeaderRole(JobManager jobManager) {
    this.jobManager = jobManager;
  }

  @Override
  public void granted(LeaderEpoch epoch) {
    jobManager.lead(epoch);
  }

  @Override
  public void revoked(LeaderEpoch ended) {
    jobManager.standBy(ended);
  }
}
