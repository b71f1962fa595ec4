package io.weir.cluster.ha;

import java.time.Duration;
import java.util.concurrent.TimeUnit;
import org.apache.curator.framework.CuratorFramework;
import org.apache.curator.framework.CuratorFrameworkFactory;
import org.apache.curator.framework.api.transaction.CuratorOp;
import org.apache.curator.framework.state.SessionConnectionStateErrorPolicy;
import org.apache.curator.retry.ExponentialBackoffRetry;
import org.apache.zookeeper.CreateMode;
import org.apache.zookeeper.KeeperException;

/**
 * One process's session with the cluster's ZooKeeper nodes (a Curator client in the cluster's
 * namespace), and the fenced write every leader write goes through. Thread safe; close it when the
 * process ends (a killed process's session expires after the session timeout, which is what deposes
 * a dead leader).
 */
public final class ClusterZooKeeper implements AutoCloseable {
  private final ZooKeeperAddress address;
  private final CuratorFramework client;
  private final Duration sessionTimeout;

  private ClusterZooKeeper(
      ZooKeeperAddress address, CuratorFramework client, Duration sessionTimeout) {
    this.address = address;
    this.client = client;
    this.sessionTimeout = sessionTimeout;
  }

  /**
   * Connects within {@code connectTimeout}.
   *
   * @param sessionTimeout how long ZooKeeper keeps this process's ephemeral nodes (its leadership,
   *     its membership) after it stops answering
   * @throws IllegalStateException with one line naming the ensemble when none answered in time
   */
  public static ClusterZooKeeper connect(
      ZooKeeperAddress address, Duration sessionTimeout, Duration connectTimeout)
      throws InterruptedException {
    CuratorFramework client =
        CuratorFrameworkFactory.builder()
            .connectString(address.connectString())
            .namespace(address.root().substring(1))
            .sessionTimeoutMs((int) sessionTimeout.toMillis())
            .connectionTimeoutMs(
                (int) Math.min(connectTimeout.toMillis(), sessionTimeout.toMillis()))
            .retryPolicy(new ExponentialBackoffRetry(100, 5, 1_000))
            // Leadership ends when the session does, not at every suspended connection: a busy
            // machine suspends connections that recover. A leader whose session ended while it
            // was cut off is fenced (epoch checks in ZooKeeper and in the task managers).
            .connectionStateErrorPolicy(new SessionConnectionStateErrorPolicy())
            .build();
    client.start();
    if (!client.blockUntilConnected((int) connectTimeout.toMillis(), TimeUnit.MILLISECONDS)) {
      client.close();
      throw new IllegalStateException(
          "No ZooKeeper answered at "
              + address.connectString()
              + " within "
              + connectTimeout.toSeconds()
              + " s");
    }
    return new ClusterZooKeeper(address, client, sessionTimeout);
  }

  public ZooKeeperAddress address() {
    return address;
  }

  /** How long ZooKeeper keeps this process's session after it stops answering. */
  Duration sessionTimeout() {
    return sessionTimeout;
  }

  CuratorFramework client() {
    return client;
  }

  /**
   * Sets {@code path} to {@code data} (creating it and its parents) only if {@code epoch} is still
   * the current leader epoch, in one ZooKeeper transaction.
   *
   * @throws DeposedLeaderException when a newer leader has been elected since
   */
  void fencedWrite(LeaderEpoch epoch, String path, byte[] data) throws Exception {
    CuratorOp check =
        client.transactionOp().check().withVersion(epoch.version()).forPath(HaPaths.EPOCH);
    boolean exists = client.checkExists().forPath(path) != null;
    if (!exists) {
      String parent = path.substring(0, path.lastIndexOf('/'));
      if (!parent.isEmpty()) {
        client.createContainers(parent);
      }
    }
    CuratorOp write =
        exists
            ? client.transactionOp().setData().forPath(path, data)
            : client.transactionOp().create().withMode(CreateMode.PERSISTENT).forPath(path, data);
    try {
      client.transaction().forOperations(check, write);
    } catch (KeeperException.BadVersionException e) {
      throw new DeposedLeaderException(epoch);
    } catch (KeeperException.NodeExistsException | KeeperException.NoNodeException e) {
      // Another write raced ours on the same node (only the leader writes): try once more.
      fencedWriteOnce(epoch, path, data);
    }
  }

  private void fencedWriteOnce(LeaderEpoch epoch, String path, byte[] data) throws Exception {
    CuratorOp check =
        client.transactionOp().check().withVersion(epoch.version()).forPath(HaPaths.EPOCH);
    CuratorOp write =
        client.checkExists().forPath(path) != null
            ? client.transactionOp().setData().forPath(path, data)
            : client.transactionOp().create().forPath(path, data);
    try {
      client.transaction().forOperations(check, write);
    } catch (KeeperException.BadVersionException e) {
      throw new DeposedLeaderException(epoch);
    }
  }

  /**
   * Deletes {@code path} and its children only if {@code epoch} is still the current leader epoch.
   */
  void fencedDelete(LeaderEpoch epoch, String path) throws Exception {
    if (client.checkExists().forPath(path) == null) {
      return;
    }
    for (String child : client.getChildren().forPath(path)) {
      fencedDelete(epoch, path + "/" + child);
    }
    CuratorOp check =
        client.transactionOp().check().withVersion(epoch.version()).forPath(HaPaths.EPOCH);
    try {
      client.transaction().forOperations(check, client.transactionOp().delete().forPath(path));
    } catch (KeeperException.BadVersionException e) {
      throw new DeposedLeaderException(epoch);
    } catch (KeeperException.NoNodeException e) {
      // Deleted already: deleting is idempotent.
    }
  }

  @Override
  public void close() {
    client.close();
  }
}
