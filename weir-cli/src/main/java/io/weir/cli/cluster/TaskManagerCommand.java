package io.weir.cli.cluster;

import io.weir.cli.error.UserError;
import io.weir.cluster.ha.ClusterZooKeeper;
import io.weir.cluster.ha.ZooKeeperAddress;
import io.weir.cluster.rpc.ClusterConnectException;
import io.weir.cluster.taskmanager.TaskManager;
import io.weir.cluster.taskmanager.TaskManagerOptions;
import java.time.Duration;
import java.util.Optional;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;

/**
 * {@code weir taskmanager}: runs a task manager; when it loses its job manager it registers again
 * with the one restarted at the same address, or, with high availability, with the leader that
 * ZooKeeper names.
 */
@Command(
    name = "taskmanager",
    description = "Run a task manager that offers slots to a job manager.")
public final class TaskManagerCommand implements Runnable {
  @Mixin ClusterOptions cluster;
  @Mixin TaskManagerSecretOption taskManagerSecret = new TaskManagerSecretOption();

  @Option(names = "--slots", description = "Parallel subtasks per task (default 1).")
  Integer slots;

  @Option(names = "--data-host", description = "Address for records from other task managers.")
  String dataHost = "127.0.0.1";

  @Option(
      names = "--reconnect-timeout-s",
      description =
          "After losing the job manager, how long to try registering again (default"
              + " ${DEFAULT-VALUE}).")
  long reconnectSeconds = 300;

  private static final long RECONNECT_PAUSE_MILLIS = 1000;

  @Override
  public void run() {
    ClusterSettings settings = ClusterSettings.load(cluster.configuration);
    int slotCount = slots != null ? slots : settings.getInt("taskmanager.slots", 1);
    Optional<ZooKeeperAddress> highAvailability = cluster.highAvailability();
    if (highAvailability.isPresent()) {
      try (ClusterZooKeeper zooKeeper =
          ClusterHighAvailability.connect(highAvailability.get(), settings)) {
        new LeaderFollower(
                zooKeeper,
                leader -> options(leader, slotCount, settings),
                Duration.ofSeconds(reconnectSeconds),
                ClusterHighAvailability.sessionTimeout(settings).plusSeconds(2))
            .run();
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
      }
      return;
    }
    TaskManagerOptions options = options(cluster.configuredAddress(), slotCount, settings);
    try {
      TaskManager taskManager = start(options);
      while (true) {
        System.out.println("task manager " + taskManager.id() + " offers " + slotCount + " slots");
        taskManager.awaitEnd();
        taskManager.close();
        taskManager = reconnect(options);
      }
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
  }

  private TaskManagerOptions options(
      io.weir.cluster.rpc.HostAndPort jobManager, int slotCount, ClusterSettings settings) {
    try {
      return new TaskManagerOptions(
          jobManager,
          slotCount,
          dataHost,
          taskManagerSecret.resolve(settings, cluster.secret()),
          Duration.ofSeconds(1),
          settings.tls());
    } catch (IllegalArgumentException e) {
      throw new UserError(e.getMessage(), e);
    }
  }

  private static TaskManager start(TaskManagerOptions options) throws InterruptedException {
    try {
      return TaskManager.start(options);
    } catch (IllegalArgumentException | ClusterConnectException e) {
      throw new UserError(e.getMessage(), e);
    }
  }

  /**
   * After losing the job manager (its tasks are cancelled by then), offers the slots again to the
   * job manager that a supervisor or {@code weir jobmanager} restarts at the same address, as
   * Flink's task managers do; gives up after the registration timeout.
   */
  private TaskManager reconnect(TaskManagerOptions options) throws InterruptedException {
    System.out.printf(
        "lost the job manager at %s; reconnecting for up to %d s%n",
        options.jobManager(), reconnectSeconds);
    long deadline = System.nanoTime() + reconnectSeconds * 1_000_000_000L;
    while (true) {
      try {
        return TaskManager.start(options);
      } catch (ClusterConnectException e) {
        if (e.isRefusal() || System.nanoTime() > deadline) {
          throw new UserError(
              "Lost the job manager at "
                  + options.jobManager()
                  + " and could not register again: "
                  + e.getMessage(),
              e);
        }
      }
      Thread.sleep(RECONNECT_PAUSE_MILLIS);
    }
  }
}
