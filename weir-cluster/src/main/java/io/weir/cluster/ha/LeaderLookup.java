package io.weir.cluster.ha;

import java.time.Duration;
import java.util.Optional;
import java.util.function.Consumer;
import org.apache.curator.framework.CuratorFramework;
import org.apache.curator.framework.recipes.cache.CuratorCache;
import org.apache.curator.framework.recipes.cache.CuratorCacheListener;
import org.apache.zookeeper.KeeperException;

/**
 * Finds the leading job manager through ZooKeeper, for task managers and clients: now, by waiting
 * for one, or as each new one takes over.
 */
public final class LeaderLookup {
  private final CuratorFramework client;

  public LeaderLookup(ClusterZooKeeper zooKeeper) {
    this.client = zooKeeper.client();
  }

  /** The leader now, or empty while there is none (between a leader's loss and the next). */
  public Optional<LeaderInfo> current() throws Exception {
    try {
      return Optional.of(LeaderInfo.decode(client.getData().forPath(HaPaths.LEADER)));
    } catch (KeeperException.NoNodeException e) {
      return Optional.empty();
    }
  }

  /**
   * The leader, waiting up to {@code timeout} for one whose epoch is at least {@code minimumEpoch};
   * ZooKeeper out of reach for a while (restarting, cut off) is waited out in that time too.
   *
   * @throws IllegalStateException with one line when none was elected in time
   */
  public LeaderInfo await(long minimumEpoch, Duration timeout) throws Exception {
    long deadline = System.nanoTime() + timeout.toNanos();
    while (true) {
      Optional<LeaderInfo> leader;
      try {
        leader = current();
      } catch (KeeperException.ConnectionLossException
          | KeeperException.SessionExpiredException e) {
        // The client gave up on this connection; the next look runs on a new one.
        leader = Optional.empty();
      }
      if (leader.isPresent() && leader.get().epoch() >= minimumEpoch) {
        return leader.get();
      }
      if (System.nanoTime() > deadline) {
        throw new IllegalStateException(
            "No job manager became leader within " + timeout.toSeconds() + " s");
      }
      Thread.sleep(100);
    }
  }

  /**
   * Tells {@code listener} of every leader that takes over from now on, on a ZooKeeper event thread
   * (it must not block). Close the returned watch to stop.
   */
  public AutoCloseable watch(Consumer<LeaderInfo> listener) {
    CuratorCache cache = CuratorCache.build(client, HaPaths.LEADER);
    cache
        .listenable()
        .addListener(
            CuratorCacheListener.builder()
                .forCreatesAndChanges(
                    (before, after) -> {
                      if (after != null && after.getPath().equals(HaPaths.LEADER)) {
                        listener.accept(LeaderInfo.decode(after.getData()));
                      }
                    })
                .build());
    cache.start();
    return cache::close;
  }
}
