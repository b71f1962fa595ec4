package io.weir.lab.process;

import io.weir.cluster.ClusterClient;
import io.weir.cluster.ha.ClusterMembers;
import io.weir.cluster.ha.ClusterZooKeeper;
import io.weir.cluster.ha.LeaderInfo;
import io.weir.cluster.ha.LeaderLookup;
import io.weir.cluster.ha.ZooKeeperAddress;
import io.weir.cluster.rpc.HostAndPort;
import io.weir.devservers.process.FreePorts;
import io.weir.devservers.process.ProcessSignals;
import io.weir.devservers.process.ProcessSignals.Signal;
import io.weir.lab.LabFailure;
import io.weir.lab.Polling;
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
 * A highly available cluster of its own for the soak: a ZooKeeper server ({@code weir zookeeper
 * start}), two job managers electing a leader through it, and two task managers of two slots that
 * follow the leader; each its own process logging into the directory. The lab kills or freezes job
 * managers as a user's machine would, and starts new ones in place of killed ones. Closing it wakes
 * and kills every process and stops ZooKeeper.
 */
public final class LabHaCluster implements AutoCloseable {
  /** ZooKeeper sessions long enough not to expire spuriously on a loaded machine. */
  static final int SESSION_TIMEOUT_MILLIS = 8_000;

  private static final String HOST = "127.0.0.1";

  private final Path directory;
  private final Duration timeout;
  private final String url;
  private final Path configuration;
  private final Map<Integer, JobProcess> jobManagers = new LinkedHashMap<>();
  private final List<JobProcess> taskManagers = new ArrayList<>();
  private ClusterZooKeeper zooKeeper;
  private int commands;

  private LabHaCluster(Path directory, Duration timeout, int zooKeeperPort) {
    this.directory = directory;
    this.timeout = timeout;
    this.url = "zookeeper://" + HOST + ":" + zooKeeperPort + "/weir";
    this.configuration = directory.resolve("weir.yaml");
  }

  /** Starts ZooKeeper, the first job manager (the leader), a standby and two task managers. */
  public static LabHaCluster start(Path directory, Duration timeout) throws Exception {
    Files.createDirectories(directory);
    LabHaCluster cluster = new LabHaCluster(directory, timeout, FreePorts.pick());
    try {
      cluster.startAll();
    } catch (Exception | Error e) {
      cluster.close();
      throw e;
    }
    return cluster;
  }

  private void startAll() throws Exception {
    Files.writeString(configuration, "ha.session.timeout.ms: " + SESSION_TIMEOUT_MILLIS + "\n");
    int port = Integer.parseInt(url.substring(url.lastIndexOf(':') + 1, url.lastIndexOf('/')));
    command(
        List.of(
            "zookeeper",
            "start",
            "--dir",
            directory.resolve("zookeeper").toString(),
            "--port",
            Integer.toString(port)));
    zooKeeper =
        ClusterZooKeeper.connect(
            ZooKeeperAddress.parse("the lab's ZooKeeper", url),
            Duration.ofMillis(SESSION_TIMEOUT_MILLIS),
            timeout);
    startJobManager();
    awaitCondition("a leader is elected", () -> leader().isPresent(), null);
    startJobManager();
    for (int number = 1; number <= 2; number++) {
      JobProcess taskManager =
          JobProcess.startCommand(
              List.of(
                  "taskmanager", "--ha", url, "--conf", configuration.toString(), "--slots", "2"),
              null,
              directory.resolve("taskmanager-" + number + ".log"));
      taskManagers.add(taskManager);
      awaitLog(taskManager, " slots");
    }
  }

  /** Starts one more job manager, which joins the election as a standby. */
  public JobProcess startJobManager() throws Exception {
    int port = FreePorts.pick();
    JobProcess jobManager =
        JobProcess.startCommand(
            List.of(
                "jobmanager",
                "--port",
                Integer.toString(port),
                "--ha",
                url,
                "--conf",
                configuration.toString(),
                "--no-web",
                "--checkpoint-dir",
                directory.resolve("checkpoints").toString()),
            null,
            directory.resolve("jobmanager-" + port + ".log"));
    jobManagers.put(port, jobManager);
    // Printed once it runs for leadership.
    awaitLog(jobManager, "job manager listening on");
    return jobManager;
  }

  /** The cluster's ZooKeeper URL, for {@code --ha}. */
  public String url() {
    return url;
  }

  public Path configuration() {
    return configuration;
  }

  /** The leader as ZooKeeper names it now, if one is. */
  public Optional<LeaderInfo> leader() throws Exception {
    return new LeaderLookup(zooKeeper).current();
  }

  /** The process of the leader ZooKeeper names now. */
  public JobProcess leaderProcess() throws Exception {
    LeaderInfo leader = leader().orElseThrow(() -> new LabFailure("the cluster has no leader"));
    JobProcess process = jobManagers.get(leader.address().port());
    if (process == null) {
      throw new LabFailure("the leader at " + leader.address() + " is not one of the lab's");
    }
    return process;
  }

  /** Whether ZooKeeper lists {@code jobManager} as a standby (a member that does not lead). */
  public boolean isStandby(JobProcess jobManager) throws Exception {
    return new ClusterMembers(zooKeeper)
        .jobManagers().stream()
            .anyMatch(member -> member.pid() == jobManager.pid() && !member.leader());
  }

  /** The state of job {@code jobId} as the current leader reports it, or empty if none answers. */
  public Optional<String> jobState(String jobId) {
    try {
      Optional<LeaderInfo> leader = leader();
      if (leader.isEmpty()) {
        return Optional.empty();
      }
      try (ClusterClient client = new ClusterClient(leader.get().address(), "")) {
        return Optional.of(client.job(jobId).state());
      }
    } catch (Exception e) {
      // A dead or frozen leader, or a standby not yet named: no answer this time.
      return Optional.empty();
    }
  }

  /** The id of the one job the leader runs. */
  public String onlyJobId() throws Exception {
    HostAndPort leader = leader().orElseThrow().address();
    try (ClusterClient client = new ClusterClient(leader, "")) {
      return client.list().get(0).jobId();
    }
  }

  /**
   * Runs {@code weir <arguments>} to its end and returns what it printed; fails the soak when it
   * exits non-zero.
   */
  public String command(List<String> arguments) throws IOException, InterruptedException {
    commands++;
    Path log = directory.resolve("command-" + commands + ".log");
    return JobProcess.runCommand(arguments, log, timeout);
  }

  /** A condition the lab polls, as the processes tell it nothing. */
  public interface Condition {
    boolean holds() throws Exception;
  }

  /**
   * Polls {@code condition} until it holds; fails the soak naming {@code what} after the timeout.
   */
  public void awaitCondition(String what, Condition condition, Path log) throws Exception {
    Polling.until(
        timeout,
        Duration.ofMillis(100),
        () -> condition.holds() ? Optional.of(true) : Optional.empty(),
        () ->
            new LabFailure(
                "not so within "
                    + timeout.toSeconds()
                    + " s: "
                    + what
                    + (log == null ? "" : "; see " + log)));
  }

  private void awaitLog(JobProcess process, String text) throws Exception {
    awaitCondition(
        "'" + text + "' in the log",
        () -> {
          if (!process.isAlive()) {
            throw JobLog.endedEarly("a cluster process ended at its start", process.log());
          }
          return Files.exists(process.log()) && Files.readString(process.log()).contains(text);
        },
        process.log());
  }

  @Override
  public void close() throws InterruptedException {
    List<JobProcess> all = new ArrayList<>(taskManagers);
    all.addAll(jobManagers.values());
    for (JobProcess process : all) {
      ProcessSignals.send(process.handle(), Signal.CONT);
      process.close();
    }
    if (zooKeeper != null) {
      zooKeeper.close();
    }
    try {
      command(List.of("zookeeper", "stop", "--dir", directory.resolve("zookeeper").toString()));
    } catch (IOException | LabFailure e) {
      // Stopping is best effort at the end; its log stays in the directory.
    }
  }
}
