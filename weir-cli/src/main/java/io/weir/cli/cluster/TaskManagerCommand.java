package io.weir.cli.cluster;

import io.weir.cli.UserError;
import io.weir.cluster.rpc.ClusterConnectException;
import io.weir.cluster.taskmanager.TaskManager;
import io.weir.cluster.taskmanager.TaskManagerOptions;
import java.time.Duration;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;

/** {@code weir taskmanager}: runs a task manager until it loses its job manager. */
@Command(
    name = "taskmanager",
    description = "Run a task manager that offers slots to a job manager.")
public final class TaskManagerCommand implements Runnable {
  @Mixin ClusterOptions cluster;

  @Option(names = "--slots", description = "Parallel subtasks per task (default 1).")
  Integer slots;

  @Option(names = "--data-host", description = "Address for records from other task managers.")
  String dataHost = "127.0.0.1";

  @Override
  public void run() {
    ClusterSettings settings = ClusterSettings.load(cluster.configuration);
    int slotCount = slots != null ? slots : settings.getInt("taskmanager.slots", 1);
    TaskManager taskManager;
    try {
      taskManager =
          TaskManager.start(
              new TaskManagerOptions(
                  cluster.address(), slotCount, dataHost, cluster.secret(), Duration.ofSeconds(1)));
    } catch (IllegalArgumentException | ClusterConnectException e) {
      throw new UserError(e.getMessage(), e);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      return;
    }
    System.out.println("task manager " + taskManager.id() + " offers " + slotCount + " slots");
    try {
      taskManager.awaitEnd();
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
    taskManager.close();
    throw new UserError("Lost the job manager at " + cluster.address() + "; stopping");
  }
}
