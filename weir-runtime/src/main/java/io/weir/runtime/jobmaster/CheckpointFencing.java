package io.weir.runtime.jobmaster;

/**
 * What keeps a second runner of a job from changing its checkpoints: a lease on the checkpoint
 * directory, or the leader term of a highly available job manager.
 */
public enum CheckpointFencing {
  /**
   * The process holds {@link io.weir.runtime.checkpoint.storage.CheckpointDirectoryLease} for the
   * life of the run: a local run, or a lone job manager. A second runner fails before it changes
   * anything.
   */
  LEASE,

  /**
   * A highly available job manager: its ZooKeeper term is confirmed before every change to the
   * job's checkpoint files, and a new leader must not wait for a file lock that a frozen deposed
   * leader still holds.
   */
  LEADER_TERM
}
