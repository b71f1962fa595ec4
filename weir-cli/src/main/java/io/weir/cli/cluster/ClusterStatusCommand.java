package io.weir.cli.cluster;

import io.weir.cli.error.UserError;
import io.weir.cluster.ClusterClient;
import io.weir.cluster.ha.ClusterMembers;
import io.weir.cluster.ha.ClusterZooKeeper;
import io.weir.cluster.ha.ZooKeeperAddress;
import io.weir.cluster.rpc.ClientMessages;
import io.weir.cluster.rpc.HostAndPort;
import java.io.PrintWriter;
import java.util.List;
import java.util.Optional;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Spec;

/**
 * {@code weir cluster status}: every job manager (address, pid, leader or standby) and task manager
 * (data address, pid, slots in use). A highly available cluster is read from ZooKeeper, so it
 * answers while the leader changes too; a plain cluster's lone job manager answers for itself and
 * the task managers registered with it.
 */
@Command(name = "status", description = "List the cluster's job managers and task managers.")
final class ClusterStatusCommand implements Runnable {
  /** One job manager line. */
  private record JobManagerLine(HostAndPort address, long pid, String role) {}

  @Spec CommandSpec spec;
  @Mixin ClusterOptions cluster;

  @Override
  public void run() {
    Optional<ZooKeeperAddress> zooKeeper = cluster.highAvailability();
    if (zooKeeper.isPresent()) {
      printHighlyAvailable(zooKeeper.get());
    } else {
      printLone();
    }
  }

  private void printHighlyAvailable(ZooKeeperAddress address) {
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
    print(
        jobManagers.stream()
            .map(
                member ->
                    new JobManagerLine(
                        member.address(), member.pid(), member.leader() ? "leader" : "standby"))
            .toList(),
        taskManagers.stream()
            .map(
                member ->
                    new ClientMessages.TaskManagerMember(
                        member.id(),
                        member.dataAddress(),
                        member.pid(),
                        member.slots(),
                        member.slotsInUse()))
            .toList());
  }

  private void printLone() {
    ClientMessages.Members members = ClusterRequest.run(cluster, ClusterClient::members);
    print(
        List.of(new JobManagerLine(members.jobManager(), members.pid(), "lone (no HA)")),
        members.taskManagers());
  }

  private void print(
      List<JobManagerLine> jobManagers, List<ClientMessages.TaskManagerMember> taskManagers) {
    PrintWriter out = spec.commandLine().getOut();
    out.printf("%-24s %-8s %s%n", "JOB MANAGER", "PID", "ROLE");
    for (JobManagerLine jobManager : jobManagers) {
      out.printf("%-24s %-8d %s%n", jobManager.address(), jobManager.pid(), jobManager.role());
    }
    out.printf("%n%-14s %-24s %-8s %s%n", "TASK MANAGER", "DATA ADDRESS", "PID", "SLOTS IN USE");
    for (ClientMessages.TaskManagerMember taskManager : taskManagers) {
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
