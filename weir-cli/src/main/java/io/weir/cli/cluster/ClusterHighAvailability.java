package io.weir.cli.cluster;

import io.weir.cli.error.UserError;
import io.weir.cluster.ha.ClusterZooKeeper;
import io.weir.cluster.ha.LeaderInfo;
import io.weir.cluster.ha.LeaderLookup;
import io.weir.cluster.ha.ZooKeeperAddress;
import java.time.Duration;
import java.util.Optional;

/**
 * The command line's side of high availability: the {@code --ha} URL (or {@code ha.url}), the
 * session with ZooKeeper, and finding the leader there. Failures are one-line user errors.
 */
final class ClusterHighAvailability {
  /** A dead leader is noticed (and a standby elected) after this long without its heartbeats. */
  static final int DEFAULT_SESSION_TIMEOUT_MILLIS = 4_000;

  private static final Duration CONNECT_TIMEOUT = Duration.ofSeconds(15);

  /** How long a client waits for a leader, e.g. while one takes over from a dead one. */
  static final Duration LEADER_WAIT = Duration.ofSeconds(30);

  private ClusterHighAvailability() {}

  /** The ZooKeeper of {@code --ha}, else of {@code ha.url}; empty without high availability. */
  static Optional<ZooKeeperAddress> address(String flag, ClusterSettings settings) {
    String url = flag != null ? flag : settings.get("ha.url", null);
    if (url == null) {
      return Optional.empty();
    }
    try {
      return Optional.of(ZooKeeperAddress.parse(flag != null ? "--ha" : "ha.url", url));
    } catch (IllegalArgumentException e) {
      throw new UserError(e.getMessage());
    }
  }

  /** How long ZooKeeper keeps a silent process's leadership and membership. */
  static Duration sessionTimeout(ClusterSettings settings) {
    return Duration.ofMillis(
        settings.getInt("ha.session.timeout.ms", DEFAULT_SESSION_TIMEOUT_MILLIS));
  }

  static ClusterZooKeeper connect(ZooKeeperAddress address, ClusterSettings settings) {
    try {
      return ClusterZooKeeper.connect(address, sessionTimeout(settings), CONNECT_TIMEOUT);
    } catch (IllegalStateException e) {
      throw new UserError(e.getMessage() + " (" + address + ")", e);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new UserError("Interrupted while connecting to ZooKeeper at " + address);
    }
  }

  /** The leader, waiting for one (of at least {@code minimumEpoch}) up to {@code timeout}. */
  static LeaderInfo leader(ClusterZooKeeper zooKeeper, long minimumEpoch, Duration timeout) {
    try {
      return new LeaderLookup(zooKeeper).await(minimumEpoch, timeout);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new UserError("Interrupted while looking for the leader");
    } catch (Exception e) {
      throw new UserError(e.getMessage() + " (" + zooKeeper.address() + ")", e);
    }
  }
}
