package io.weir.cli.cluster;

import io.weir.cli.error.UserError;
import io.weir.cluster.rpc.HostAndPort;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;

/**
 * {@code weir cluster start|stop}: a local cluster in the background, one process per job manager
 * and task manager, with pid and log files in a state directory (as Flink's start-cluster.sh).
 */
@Command(
    name = "cluster",
    description = "Start or stop a local cluster in the background.",
    subcommands = {
      ClusterCommand.Start.class,
      ClusterCommand.Stop.class,
      ClusterStatusCommand.class,
      ClusterCertCommand.class,
      DashboardTokenCommand.class
    })
public final class ClusterCommand {
  /** The pid files of the cluster that {@code weir cluster start} started, by configuration. */
  public static Optional<ProcessHandle> runningJobManager(ClusterOptions cluster) {
    return new ClusterPidFiles(stateDirectory(null, cluster)).jobManager();
  }

  static Path stateDirectory(Path given, ClusterOptions cluster) {
    if (given != null) {
      return given.toAbsolutePath();
    }
    return Path.of(
            ClusterSettings.load(cluster.configuration).get("cluster.state.dir", ".weir/cluster"))
        .toAbsolutePath();
  }

  /** {@code weir cluster start}. */
  @Command(name = "start", description = "Start a job manager and task managers in the background.")
  public static final class Start implements Runnable {
    @Mixin ClusterOptions cluster;
    @Mixin TaskManagerSecretOption taskManagerSecret = new TaskManagerSecretOption();

    @Option(names = "--taskmanagers", description = "How many task managers (default 1).")
    int taskManagers = 1;

    @Option(
        names = "--jobmanagers",
        description =
            "How many job managers (default 1); more than one elect a leader through --ha, on"
                + " consecutive ports from the job manager's.")
    int jobManagers = 1;

    @Option(
        names = "--web-port",
        paramLabel = "PORT",
        description = "Port of the job manager's dashboard (default 8081; 0: any free port).")
    Integer webPort;

    @Option(names = "--slots", description = "Slots per task manager (default 2).")
    int slots = 2;

    @Option(names = "--state-dir", description = "Pid and log files (default .weir/cluster).")
    Path stateDirectory;

    @Override
    public void run() {
      Path state = stateDirectory(stateDirectory, cluster);
      ClusterPidFiles pids = new ClusterPidFiles(state);
      HostAndPort first = cluster.configuredAddress();
      try {
        Files.createDirectories(state);
        if (pids.jobManager().isPresent()) {
          throw new UserError("A cluster runs already from " + state + "; stop it first");
        }
        // What a killed cluster left behind: a crash must not block the restart.
        for (ProcessHandle leftover : pids.removeAll()) {
          System.out.println(
              "stopping task manager " + leftover.pid() + " left over from the previous cluster");
          leftover.destroy();
        }
        List<String> common = new ArrayList<>();
        boolean highlyAvailable = cluster.highAvailability().isPresent();
        if (jobManagers > 1 && !highlyAvailable) {
          throw new UserError("--jobmanagers " + jobManagers + " needs --ha zookeeper://HOST:PORT");
        }
        if (cluster.highAvailability != null) {
          common.addAll(List.of("--ha", cluster.highAvailability));
        }
        if (cluster.configuration != null) {
          common.addAll(List.of("--conf", cluster.configuration.toString()));
        }
        if (cluster.secret != null) {
          common.addAll(List.of("--secret", cluster.secret));
        }
        if (taskManagerSecret.secret != null) {
          common.addAll(List.of("--taskmanager-secret", taskManagerSecret.secret));
        }
        for (int i = 1; i <= jobManagers; i++) {
          List<String> jobManager = new ArrayList<>(List.of("jobmanager"));
          jobManager.addAll(List.of("--port", String.valueOf(first.port() + i - 1)));
          jobManager.addAll(common);
          if (i > 1) {
            // Each standby's dashboard on a port of its own.
            jobManager.addAll(List.of("--web-port", "0"));
          } else if (webPort != null) {
            jobManager.addAll(List.of("--web-port", webPort.toString()));
          }
          spawn(pids, i == 1 ? "jobmanager" : "jobmanager-" + i, jobManager);
        }
        awaitJobManager();
        for (int i = 1; i <= taskManagers; i++) {
          List<String> taskManager = new ArrayList<>(List.of("taskmanager"));
          if (!highlyAvailable) {
            taskManager.addAll(List.of("--jobmanager", first.toString()));
          }
          taskManager.addAll(List.of("--slots", "" + slots));
          taskManager.addAll(common);
          spawn(pids, "taskmanager-" + i, taskManager);
        }
      } catch (IOException e) {
        throw new UserError("Cannot start the cluster in " + state + ": " + e.getMessage(), e);
      }
      System.out.println(
          "cluster started: "
              + (jobManagers == 1
                  ? "job manager at " + first
                  : jobManagers + " job managers from " + first)
              + ", "
              + taskManagers
              + " task managers; logs in "
              + state);
    }

    private void awaitJobManager() {
      long deadline = System.currentTimeMillis() + 30_000;
      while (true) {
        try {
          ClusterRequest.run(cluster, client -> client.list());
          return;
        } catch (UserError e) {
          if (System.currentTimeMillis() > deadline) {
            throw e;
          }
        }
        try {
          Thread.sleep(200);
        } catch (InterruptedException e) {
          Thread.currentThread().interrupt();
          return;
        }
      }
    }

    private static void spawn(ClusterPidFiles pids, String name, List<String> args)
        throws IOException {
      pids.spawn(name, args);
    }
  }

  /** {@code weir cluster stop}. */
  @Command(name = "stop", description = "Stop the cluster started with 'cluster start'.")
  public static final class Stop implements Runnable {
    private static final Duration STOP_WAIT = Duration.ofSeconds(10);

    @Mixin ClusterOptions cluster;

    @Option(names = "--state-dir", description = "Pid and log files (default .weir/cluster).")
    Path stateDirectory;

    @Override
    public void run() {
      Path state = stateDirectory(stateDirectory, cluster);
      if (!Files.isDirectory(state)) {
        throw new UserError("No cluster to stop in " + state);
      }
      List<ProcessHandle> running;
      try {
        running = new ClusterPidFiles(state).stopAll(STOP_WAIT);
      } catch (IOException e) {
        throw new UserError("No cluster to stop in " + state + ": " + e.getMessage());
      } catch (Exception e) {
        throw new UserError("Cannot stop the cluster in " + state + ": " + e.getMessage(), e);
      }
      System.out.println("stopped " + running.size() + " processes of the cluster in " + state);
    }
  }
}
