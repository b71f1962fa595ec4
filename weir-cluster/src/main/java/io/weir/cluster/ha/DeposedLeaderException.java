package io.weir.cluster.ha;

/**
 * A job manager tried to act as leader after a newer leader was elected: the write was refused.
 * Whatever the write was for (a checkpoint's pointer, a job) must not take effect.
 */
public final class DeposedLeaderException extends IllegalStateException {
  public DeposedLeaderException(LeaderEpoch epoch) {
    super("This job manager is no longer the leader (its epoch " + epoch.epoch() + " was ended)");
  }
}
