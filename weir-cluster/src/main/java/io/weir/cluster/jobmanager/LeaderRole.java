package io.weir.cluster.jobmanager;

import io.weir.cluster.ha.JobManagerHighAvailability;
import io.weir.cluster.ha.LeaderEpoch;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * What a job manager does when the election makes it leader (recover every stored job) and when it
 * loses the leadership: it halts, as {@code kill -9} would end it. A deposed leader that went on
 * would race the new one; its writes and messages are fenced, but halting leaves nothing to race.
 * Run job managers under a supervisor that starts them again; they come back as standbys.
 */
final class LeaderRole implements JobManagerHighAvailability.LeadershipListener {
  private static final Logger LOG = LoggerFactory.getLogger(LeaderRole.class);

  /** The exit code of a job manager that lost its leadership. */
  static final int EXIT_LEADERSHIP_LOST = 75;

  private final JobManager jobManager;

  LeaderRole(JobManager jobManager) {
    this.jobManager = jobManager;
  }

  @Override
  public void granted(LeaderEpoch epoch) {
    jobManager.lead(epoch);
  }

  @Override
  public void revoked() {
    LOG.error(
        "Lost the leadership: halting (exit code {}) so that only the new leader acts",
        EXIT_LEADERSHIP_LOST);
    Runtime.getRuntime().halt(EXIT_LEADERSHIP_LOST);
  }
}
