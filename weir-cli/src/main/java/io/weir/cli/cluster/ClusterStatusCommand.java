package io.weir.cli.cluster;

import io.weir.cli.error.UserError;
import io.weir.cluster.ha.ClusterMembers;
import io.weir.cluster.ha.ClusterZooKeeper;
import io.weir.cluster.ha.ZooKeeperAddress;
import java.io.PrintWriter;
import java.util.List;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Spec;

/**
 * {@code weir cluster status}: every job manager (address, pid, leader or standby) and task manager
 * (data address, pid, slots in use) of a highly available cluster, as ZooKeeper knows them, so it
 * answers while the leader changes too.
 */
@Command(name = "status", description = "List the cluster's job managers and task managers.")
final class ClusterStatusCommand implements Runnable {
  @Spec CommandSpec spec;
  @Mixin ClusterOptions cluster;

  @Override
  public void run() {
    ZooKeeperAddress address =
        cluster
            .highAvailability()
            .orElseThrow(
                () ->
                    new UserError(
                        "cluster status reads the cluster from ZooKeeper: give --ha"
                            + " zookeeper://HOST:PORT (or set ha.url)"));
    List<ClusterMembers.JobManagerMember> jobManagers;
    List<ClusterMembers.TaskManagerMember> taskManagers;
    try (ClusterZooKeeper zooKeeper =
        ClusterHighAvailability.connect(address, ClusterSettings.load(cluster.configuration))) {
      ClusterMembers members = new ClusterMembers(zooKeeper);
      jobManagers = members.jobManagers();
      taskManagers = members.taskManagers();
    } catch (UserError e) {
      throw e;
    } catch (Exception e) {
      throw new UserError("Cannot read the cluster from " + address + ": " + e.getMessage(), e);
    }
    PrintWriter out = spec.commandLine().getOut();
    out.printf("%-24s %-8s %s%n", "JOB MANAGER", "PID", "ROLE");
    for (ClusterMembers.JobManagerMember jobManager : jobManagers) {
      out.printf(
          "%-24s %-8d %s%n",
          jobManager.address(), jobManager.pid(), jobManager.leader() ? "leader" : "standby");
    }
    out.printf("%n%-14s %-24s %-8s %s%n", "TASK MANAGER", "DATA ADDRESS", "PID", "SLOTS IN USE");
    for (ClusterMembers.TaskManagerMember taskManager : taskManagers) {
      out.printf(
          "%-14s %-24s %-8d %d/%d%n",
          taskManager.id(),
          taskManager.dataAddress(),
          taskManager.pid(),
          taskManager.slotsInUse(),
          taskManager.slots());
    }
    out.flush();
  }
}
