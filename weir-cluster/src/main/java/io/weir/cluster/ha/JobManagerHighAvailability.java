package io.weir.cluster.ha;

import io.weir.cluster.rpc.HostAndPort;
import io.weir.cluster.rpc.JobSubmission;
import io.weir.runtime.jobmaster.CheckpointFencing;
import java.util.List;
import java.util.Set;

/**
 * What a job manager needs to run beside others: leader election, the job store, and the pointer to
 * each job's latest completed checkpoint. {@link #none()} is a lone job manager, leader from the
 * start; {@link ZooKeeperHighAvailability} elects one of several through ZooKeeper.
 *
 * <p>Writes ({@link #storeJob}, {@link #removeJob}, {@link #pointToCheckpoint}, {@link
 * #claimCheckpointId}) block until ZooKeeper confirms them and are fenced: once another job manager
 * has become leader they throw {@link DeposedLeaderException} and change nothing. Thread safe.
 */
public interface JobManagerHighAvailability extends AutoCloseable {
  /** Told when this job manager becomes leader and when it stops being leader. */
  interface LeadershipListener {
    /**
     * This job manager leads from now on, in {@code epoch}; called once per term, on a thread of
     * the election, before any task manager or client can find it as leader.
     */
    void granted(LeaderEpoch epoch);

    /**
     * This job manager lost the leadership of {@code ended} (its ZooKeeper session expired, or it
     * {@linkplain #stepDown stepped down}); its writes of that term fail from now on, and it runs
     * for leadership again as a standby. Called at most once per term, on the election's thread,
     * after {@link #granted} of that term.
     */
    void revoked(LeaderEpoch ended);
  }

  /** A lone job manager: leader at once, in epoch 0, with nothing to store. */
  static JobManagerHighAvailability none() {
    return new NoHighAvailability();
  }

  /**
   * Joins the election as {@code address} (process {@code pid}); the listener hears of each term.
   */
  void runForLeadership(HostAndPort address, long pid, LeadershipListener listener)
      throws Exception;

  /**
   * Gives up the leadership of {@code epoch}, if this job manager still holds it, and runs for
   * leadership again as a standby; for a leader that found a newer epoch (a write threw {@link
   * DeposedLeaderException}). The listener hears of it with {@link LeadershipListener#revoked}.
   * Does not block.
   */
  void stepDown(LeaderEpoch epoch);

  /**
   * True if this job manager leads in {@code epoch} as ZooKeeper confirmed within the last quarter
   * of a session timeout (no other can have been elected since), asking it again otherwise; false
   * once the term ended, or when ZooKeeper does not confirm it (a newer epoch steps down). Guards
   * what a job manager frozen or cut off for longer than its session must not do when it runs again
   * before it heard that it was deposed: change the job's checkpoint files. May block for a
   * ZooKeeper round trip; thread safe.
   */
  boolean confirmLeadership(LeaderEpoch epoch);

  /**
   * What keeps a second runner off a job's checkpoints: a lone job manager holds the lease of each
   * job's checkpoint directory, as a local run does; an elected one is fenced by its term, and a
   * new leader must not wait for the file lock that a frozen deposed leader still holds.
   */
  CheckpointFencing checkpointFencing();

  /** True while this job manager is the leader. */
  boolean isLeader();

  /** The current leader, as far as this job manager knows, for pointing clients to it. */
  String leaderDescription();

  /** Records a submitted job, which every later leader recovers until {@link #removeJob}. */
  void storeJob(LeaderEpoch epoch, String jobId, JobSubmission submission) throws Exception;

  /** Forgets a job that ended (finished, failed or cancelled). */
  void removeJob(LeaderEpoch epoch, String jobId) throws Exception;

  /**
   * Points the job to its latest completed checkpoint; called before the checkpoint's notifications
   * go out, so that a new leader never restores an older checkpoint than one whose transactions a
   * sink may have committed.
   */
  void pointToCheckpoint(LeaderEpoch epoch, String jobId, long checkpointId, String location)
      throws Exception;

  /**
   * Claims checkpoint id {@code checkpointId} of the job before its barrier goes out: a later
   * leader's ids start above it ({@link #lastClaimedCheckpointId}), so a checkpoint this leader
   * still completes after it was deposed never shares a directory with one of a later leader.
   * Fenced as every write.
   */
  void claimCheckpointId(LeaderEpoch epoch, String jobId, long checkpointId) throws Exception;

  /** The highest checkpoint id any leader claimed for the job, or 0 when none did. */
  long lastClaimedCheckpointId(String jobId) throws Exception;

  /** The jobs to recover, with their latest completed checkpoints. */
  List<StoredJob> storedJobs() throws Exception;

  /**
   * The ids of the task managers that keep a node among the cluster's members now (a task manager
   * takes its node away once its tasks for a leader ended, or loses it with its ZooKeeper session);
   * none for a lone job manager.
   */
  Set<String> listedTaskManagers() throws Exception;

  @Override
  void close();
}
