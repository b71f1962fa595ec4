package io.weir.cli.cluster;

import static org.awaitility.Awaitility.await;

import io.weir.cluster.ClusterClient;
import io.weir.cluster.ha.ClusterZooKeeper;
import io.weir.cluster.ha.LeaderInfo;
import io.weir.cluster.ha.LeaderLookup;
import io.weir.cluster.ha.ZooKeeperAddress;
import io.weir.devservers.process.FreePorts;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * A highly available cluster of real processes: two job managers electing a leader through a real
 * ZooKeeper (started with {@code weir zookeeper start}, its own process) and two task managers of
 * two slots that follow the leader; every one its own JVM with this JVM's class path, as {@link
 * LocalClusterProcesses} starts them. The job managers share one checkpoint directory, the shared
 * storage of jobs' jars and checkpoints.
 */
final class HaClusterProcesses implements AutoCloseable {
  /**
   * Longer than the product's default (4 s): on a machine shared by many builds a process may not
   * be heard from for seconds. {@code -Dweir.ha.session.ms=4000} measures failovers with the
   * default.
   */
  static final int SESSION_TIMEOUT_MILLIS = Integer.getInteger("weir.ha.session.ms", 8_000);

  private final Path directory;
  private final Path logs;
  private final Path configuration;
  private final String zooKeeperUrl;
  private final ClusterZooKeeper zooKeeper;
  private final Map<Integer, Process> jobManagers = new LinkedHashMap<>();
  private final Map<Integer, Path> jobManagerLogs = new LinkedHashMap<>();
  private final List<Process> taskManagers = new ArrayList<>();
  private final List<Path> taskManagerLogs = new ArrayList<>();

  /**
   * @param directory the checkpoints
   * @param logs the processes' logs, kept after the test
   */
  HaClusterProcesses(Path directory, Path logs, String zooKeeperUrl) throws Exception {
    this.directory = directory;
    this.logs = Files.createDirectories(logs);
    // Logs of an earlier run would answer the waits for this run's processes.
    try (var old = Files.list(logs)) {
      for (Path log : old.toList()) {
        Files.delete(log);
      }
    }
    // Sessions longer than the default: on a machine shared by many builds a process may not
    // be heard from for seconds, and a leader whose session ends is deposed.
    this.configuration = logs.resolve("weir.yaml");
    Files.writeString(configuration, "ha.session.timeout.ms: " + SESSION_TIMEOUT_MILLIS + "\n");
    this.zooKeeperUrl = zooKeeperUrl;
    this.zooKeeper =
        ClusterZooKeeper.connect(
            ZooKeeperAddress.parse("zookeeper", zooKeeperUrl),
            Duration.ofSeconds(10),
            Duration.ofSeconds(30));
  }

  /** The first job manager (which becomes leader), a standby, and the task managers. */
  HaClusterProcesses start() throws Exception {
    return start(null);
  }

  /**
   * As {@link #start()}, with {@code failpoints} (as {@code -Dweir.failpoints}, or null) armed in
   * the first job manager only.
   */
  HaClusterProcesses start(String failpoints) throws Exception {
    Path standbyLog = launchJobManagers(failpoints);
    for (int i = 0; i < 2; i++) {
      launchTaskManager(null);
    }
    awaitLog(standbyLog, "runs for leadership");
    for (Path log : taskManagerLogs) {
      awaitLog(log, "offers");
    }
    return this;
  }

  /** The job managers alone, the first the leader; task managers come with startTaskManager. */
  HaClusterProcesses startJobManagers() throws Exception {
    awaitLog(launchJobManagers(null), "runs for leadership");
    return this;
  }

  /** The first job manager, once it leads; then launches the standby and returns its log. */
  private Path launchJobManagers(String failpoints) throws Exception {
    awaitLog(launchJobManager(failpoints), "runs for leadership");
    await().atMost(Duration.ofSeconds(90)).until(() -> leader().isPresent());
    // The standby and the task managers start side by side: a JVM start is mostly waiting.
    return launchJobManager(null);
  }

  /**
   * One more task manager, with {@code failpoints} (as {@code -Dweir.failpoints}, or null), once it
   * offered its slots; its number.
   */
  int startTaskManager(String failpoints) throws IOException {
    launchTaskManager(failpoints);
    awaitLog(taskManagerLogs.get(taskManagerLogs.size() - 1), "offers");
    return taskManagers.size();
  }

  private static void awaitLog(Path log, String text) {
    await()
        .atMost(Duration.ofSeconds(90))
        .until(() -> Files.exists(log) && Files.readString(log).contains(text));
  }

  void startJobManager() throws IOException {
    awaitLog(launchJobManager(null), "runs for leadership");
  }

  private Path launchJobManager(String failpoints) throws IOException {
    int port = FreePorts.pick();
    List<String> args =
        List.of(
            "jobmanager",
            "--port",
            "" + port,
            "--ha",
            zooKeeperUrl,
            "--conf",
            configuration.toString(),
            "--heartbeat-timeout-ms",
            "5000",
            "--no-web",
            "--checkpoint-dir",
            directory.resolve("checkpoints").toString());
    Path log = logs.resolve("jobmanager-" + port + ".log");
    jobManagers.put(port, LocalClusterProcesses.start(log, args, failpoints));
    jobManagerLogs.put(port, log);
    return log;
  }

  private void launchTaskManager(String failpoints) throws IOException {
    int number = taskManagers.size() + 1;
    Path log = logs.resolve("taskmanager-" + number + ".log");
    taskManagers.add(
        LocalClusterProcesses.start(
            log,
            List.of(
                "taskmanager",
                "--ha",
                zooKeeperUrl,
                "--conf",
                configuration.toString(),
                "--slots",
                "2"),
            failpoints));
    taskManagerLogs.add(log);
  }

  Optional<LeaderInfo> leader() throws Exception {
    return new LeaderLookup(zooKeeper).current();
  }

  /** The leader's process. */
  Process leaderProcess() throws Exception {
    return jobManagers.get(leader().orElseThrow().address().port());
  }

  Path leaderLog() throws Exception {
    return jobManagerLogs.get(leader().orElseThrow().address().port());
  }

  Path logOf(Process jobManager) {
    for (Map.Entry<Integer, Process> entry : jobManagers.entrySet()) {
      if (entry.getValue() == jobManager) {
        return jobManagerLogs.get(entry.getKey());
      }
    }
    throw new IllegalArgumentException("not a job manager of this cluster");
  }

  /** The job managers whose processes run (a frozen one counts). */
  List<Process> aliveJobManagers() {
    return jobManagers.values().stream().filter(Process::isAlive).toList();
  }

  Path taskManagerLog(int number) {
    return taskManagerLogs.get(number - 1);
  }

  /** A client of the leader as ZooKeeper names it now. */
  ClusterClient leaderClient() throws Exception {
    return new ClusterClient(leader().orElseThrow().address(), "");
  }

  @Override
  public void close() throws InterruptedException {
    List<Process> all = new ArrayList<>(taskManagers);
    all.addAll(jobManagers.values());
    for (Process process : all) {
      try {
        LocalClusterProcesses.signal(process, "-CONT");
      } catch (Exception e) {
        // Ended already.
      }
      process.destroyForcibly();
    }
    for (Process process : all) {
      process.waitFor();
    }
    zooKeeper.close();
  }
}
