package io.weir.api.functions;

import io.weir.api.annotation.PublicEvolving;
import java.io.Serializable;
import java.util.Objects;

/**
 * The fencing token of a job's runner: which acquisition of the lease on which checkpoint directory
 * the run holds. The operating system's file lock keeps a second runner out where it holds; where
 * it does not (a network file system that ignores locks, a directory mounted twice), two runners
 * hold different epochs of the same directory, and a sink that records the token in its external
 * system refuses the older one once the newer one recovered it.
 *
 * @param checkpointDirectory the job's checkpoint directory, absolute; empty without a lease
 * @param epoch one more with every acquisition of the lease on that directory; 0 without a lease
 *     (checkpoints in memory, a highly available job manager, whose ZooKeeper term fences instead)
 */
@PublicEvolving
public record LeaseEpoch(String checkpointDirectory, long epoch) implements Serializable {
  /** No lease: a sink fences nothing with it. */
  public static final LeaseEpoch NONE = new LeaseEpoch("", 0);

  public LeaseEpoch {
    Objects.requireNonNull(checkpointDirectory, "checkpointDirectory");
  }

  /** Whether the run holds a lease, so that a sink fences with it. */
  public boolean isHeld() {
    return epoch > 0;
  }

  /**
   * Whether a recovery of this run must be refused, {@code stored} being the token its sink
   * recorded last: a newer acquisition of the same directory recovered it. A token of another
   * directory is replaced, as by a job restored from a savepoint into a new checkpoint directory.
   */
  public boolean isOlderThan(LeaseEpoch stored) {
    return checkpointDirectory.equals(stored.checkpointDirectory) && epoch < stored.epoch;
  }

  /**
   * Whether a commit or abort of this run must be refused, {@code stored} being the token its sink
   * recorded last: any run but this one (or an older acquisition of its directory) recovered it.
   */
  public boolean isFencedBy(LeaseEpoch stored) {
    return !checkpointDirectory.equals(stored.checkpointDirectory) || epoch < stored.epoch;
  }

  /** {@code lease epoch 3 of /data/checkpoints/seed}. */
  public String describe() {
    return "lease epoch " + epoch + " of " + checkpointDirectory;
  }
}
