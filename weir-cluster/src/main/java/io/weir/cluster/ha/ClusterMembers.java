package io.weir.cluster.ha;

import io.weir.cluster.rpc.HostAndPort;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import org.apache.curator.framework.CuratorFramework;
import org.apache.zookeeper.CreateMode;
import org.apache.zookeeper.KeeperException;

/**
 * The cluster's running processes as ZooKeeper sees them: every job manager and task manager keeps
 * an ephemeral node while its session lives, so {@code weir cluster status} can list them without
 * asking any of them (and while the leader changes).
 */
public final class ClusterMembers {
  /** A job manager, and whether it is the leader. */
  public record JobManagerMember(HostAndPort address, long pid, boolean leader) {}

  /**
   * A task manager.
   *
   * @param slotsInUse slots that run a subtask of some job
   */
  public record TaskManagerMember(
      String id, HostAndPort dataAddress, long pid, int slots, int slotsInUse) {}

  private final CuratorFramework client;
  private final LeaderLookup leaders;

  public ClusterMembers(ClusterZooKeeper zooKeeper) {
    this.client = zooKeeper.client();
    this.leaders = new LeaderLookup(zooKeeper);
  }

  void registerJobManager(HostAndPort address, long pid) throws Exception {
    putEphemeral(HaPaths.JOB_MANAGERS + "/" + address, String.valueOf(pid));
  }

  /** Registers a task manager, or updates its slots in use. */
  public void registerTaskManager(TaskManagerMember member) throws Exception {
    putEphemeral(
        HaPaths.TASK_MANAGERS + "/" + member.id(),
        member.dataAddress()
            + " "
            + member.pid()
            + " "
            + member.slots()
            + " "
            + member.slotsInUse());
  }

  /** Takes a task manager's node away once it left its leader (its process may go on). */
  public void unregisterTaskManager(String id) throws Exception {
    try {
      client.delete().forPath(HaPaths.TASK_MANAGERS + "/" + id);
    } catch (KeeperException.NoNodeException e) {
      // Never registered, or gone already.
    }
  }

  private void putEphemeral(String path, String data) throws Exception {
    byte[] bytes = ZooKeeperHighAvailability.bytes(data);
    try {
      client.setData().forPath(path, bytes);
      return;
    } catch (KeeperException.NoNodeException e) {
      // Not registered yet in this session.
    }
    try {
      client
          .create()
          .creatingParentContainersIfNeeded()
          .withMode(CreateMode.EPHEMERAL)
          .forPath(path, bytes);
    } catch (KeeperException.NodeExistsException e) {
      // Left by this address's previous process, whose session has not expired yet.
      client.delete().forPath(path);
      client.create().withMode(CreateMode.EPHEMERAL).forPath(path, bytes);
    }
  }

  public List<JobManagerMember> jobManagers() throws Exception {
    Optional<LeaderInfo> leader = leaders.current();
    List<JobManagerMember> members = new ArrayList<>();
    for (String address : children(HaPaths.JOB_MANAGERS)) {
      Optional<String> pid = data(HaPaths.JOB_MANAGERS + "/" + address);
      if (pid.isPresent()) {
        HostAndPort at = HostAndPort.parse("a job manager node", address);
        long processId = Long.parseLong(pid.get().trim());
        members.add(
            new JobManagerMember(
                at,
                processId,
                leader.filter(l -> l.address().equals(at) && l.pid() == processId).isPresent()));
      }
    }
    return members;
  }

  public List<TaskManagerMember> taskManagers() throws Exception {
    List<TaskManagerMember> members = new ArrayList<>();
    for (String id : children(HaPaths.TASK_MANAGERS)) {
      Optional<String> data = data(HaPaths.TASK_MANAGERS + "/" + id);
      if (data.isPresent()) {
        String[] fields = data.get().trim().split(" ");
        members.add(
            new TaskManagerMember(
                id,
                HostAndPort.parse("a task manager node", fields[0]),
                Long.parseLong(fields[1]),
                Integer.parseInt(fields[2]),
                Integer.parseInt(fields[3])));
      }
    }
    return members;
  }

  private List<String> children(String path) throws Exception {
    try {
      return client.getChildren().forPath(path).stream().sorted().toList();
    } catch (KeeperException.NoNodeException e) {
      return List.of();
    }
  }

  private Optional<String> data(String path) throws Exception {
    try {
      return Optional.of(ZooKeeperHighAvailability.text(client.getData().forPath(path)));
    } catch (KeeperException.NoNodeException e) {
      // Gone since the listing: that process ended.
      return Optional.empty();
    }
  }
}
