package io.weir.cluster.ha;

/** The nodes of one cluster under its root (Curator's namespace). */
final class HaPaths {
  /** The leader latch's participants, one ephemeral sequential node per job manager. */
  static final String LEADER_LATCH = "/leader-latch";

  /** The leader's {@link LeaderInfo}: ephemeral, written by the leader once its epoch is set. */
  static final String LEADER = "/leader";

  /**
   * The leader epoch: each new leader increments it. Its node version is the fencing token every
   * write of a leader checks, so a deposed leader's writes fail.
   */
  static final String EPOCH = "/epoch";

  /**
   * One node per job to recover, with its submission; children hold its latest checkpoint and the
   * highest checkpoint id claimed.
   */
  static final String JOBS = "/jobs";

  /** One ephemeral node per running job manager, leader or standby. */
  static final String JOB_MANAGERS = "/jobmanagers";

  /** One ephemeral node per running task manager. */
  static final String TASK_MANAGERS = "/taskmanagers";

  private HaPaths() {}

  static String job(String jobId) {
    return JOBS + "/" + jobId;
  }

  static String latestCheckpoint(String jobId) {
    return job(jobId) + "/latest-checkpoint";
  }

  /** The highest checkpoint id any leader claimed for the job (before triggering it). */
  static String claimedCheckpointIds(String jobId) {
    return job(jobId) + "/claimed-checkpoint-ids";
  }
}
