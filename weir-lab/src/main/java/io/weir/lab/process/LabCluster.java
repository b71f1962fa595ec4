package io.weir.lab.process;

import io.weir.cluster.ClusterClient;
import io.weir.cluster.rpc.ClusterConnectException;
import io.weir.cluster.rpc.HostAndPort;
import io.weir.devservers.process.FreePorts;
import io.weir.lab.LabFailure;
import io.weir.lab.Polling;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * A standalone cluster for the operations that only a cluster offers (savepoints of a running job):
 * a job manager on a free loopback port and one task manager, each its own process ({@code weir
 * jobmanager}, {@code weir taskmanager}) logging into the cell's directory; and the client commands
 * a user would type against it. Closing it kills both processes. The benchmark uses one as a
 * session cluster that its measured clients submit to.
 */
public final class LabCluster implements AutoCloseable {
  private static final String HOST = "127.0.0.1";
  private static final Duration POLL = Duration.ofMillis(200);

  private final Path directory;
  private final Duration timeout;
  private final String failpoints;
  private final int port;
  private final List<JobProcess> processes = new ArrayList<>();
  private int commands;

  private LabCluster(Path directory, Duration timeout, String failpoints, int port) {
    this.directory = directory;
    this.timeout = timeout;
    this.failpoints = failpoints;
    this.port = port;
  }

  /** Starts the job manager, waits until it answers, then starts a task manager. */
  public static LabCluster start(Path directory, int slots, Duration timeout) throws Exception {
    return start(directory, slots, timeout, null);
  }

  /**
   * As {@link #start(Path, int, Duration)}, with {@code failpoints} (or null) in the job manager
   * and the task manager: a halt in either ends that process, see {@link #haltExit()}.
   */
  public static LabCluster start(Path directory, int slots, Duration timeout, String failpoints)
      throws Exception {
    Files.createDirectories(directory);
    LabCluster cluster = new LabCluster(directory, timeout, failpoints, FreePorts.pick());
    try {
      cluster.startProcesses(slots);
    } catch (Exception | Error e) {
      cluster.close();
      throw e;
    }
    return cluster;
  }

  private void startProcesses(int slots) throws Exception {
    JobProcess jobManager =
        JobProcess.startCommand(
            List.of(
                "jobmanager",
                "--port",
                Integer.toString(port),
                "--checkpoint-dir",
                directory.resolve("checkpoints").toString(),
                // Clusters run side by side (lab cells, tests): each its own free dashboard port.
                "--web-port",
                "0"),
            failpoints,
            directory.resolve("jobmanager.log"));
    processes.add(jobManager);
    awaitJobManager(jobManager);
    JobProcess taskManager =
        JobProcess.startCommand(
            List.of("taskmanager", "--jobmanager", address(), "--slots", Integer.toString(slots)),
            failpoints,
            directory.resolve("taskmanager.log"));
    processes.add(taskManager);
    awaitRegistration(taskManager);
  }

  /**
   * Waits until the task manager registered its slots (it prints "task manager ID offers N slots"):
   * a job submitted to a cluster without slots would wait for ever.
   */
  private void awaitRegistration(JobProcess taskManager) throws Exception {
    Polling.until(
        timeout,
        POLL,
        () -> {
          if (Files.exists(taskManager.log())
              && Files.readString(taskManager.log()).contains(" slots")) {
            return Optional.of(true);
          }
          if (!taskManager.isAlive()) {
            throw JobLog.endedEarly("the task manager ended at its start", taskManager.log());
          }
          return Optional.empty();
        },
        () ->
            new LabFailure(
                "the task manager did not register within "
                    + timeout.toSeconds()
                    + " s; see "
                    + taskManager.log()));
  }

  private void awaitJobManager(JobProcess jobManager) throws Exception {
    Polling.until(
        timeout,
        POLL,
        () -> {
          if (!jobManager.isAlive()) {
            throw JobLog.endedEarly("the job manager ended at its start", jobManager.log());
          }
          try (ClusterClient client = new ClusterClient(new HostAndPort(HOST, port), "")) {
            client.list();
            return Optional.of(true);
          } catch (ClusterConnectException | RuntimeException e) {
            return Optional.empty(); // not listening yet
          }
        },
        () ->
            new LabFailure("the job manager did not answer within " + timeout.toSeconds() + " s"));
  }

  /** Whether the job manager and the task manager are both alive. */
  boolean allAlive() {
    return processes.stream().allMatch(JobProcess::isAlive);
  }

  /** The exit code of a cluster process that a failpoint halted, if one did. */
  Optional<Integer> haltExit() throws InterruptedException {
    for (JobProcess process : processes) {
      if (!process.isAlive() && RunningJob.isHalt(process.waitFor(0))) {
        return Optional.of(process.waitFor(0));
      }
    }
    return Optional.empty();
  }

  /** The logs of the job manager and the task manager. */
  List<Path> logs() {
    return processes.stream().map(JobProcess::log).toList();
  }

  /** The process ids of the job manager and the task manager. */
  public List<Long> pids() {
    return processes.stream().map(JobProcess::pid).toList();
  }

  public String address() {
    return HOST + ":" + port;
  }

  /**
   * Runs {@code weir <arguments> --jobmanager ADDRESS} to its end and returns what it printed;
   * fails the cell when it exits non-zero (naming an unknown command or option as not supported).
   */
  public String command(List<String> arguments) throws IOException, InterruptedException {
    commands++;
    Path log = directory.resolve("command-" + commands + ".log");
    List<String> withAddress = new ArrayList<>(arguments);
    withAddress.addAll(List.of("--jobmanager", address()));
    return JobProcess.runCommand(withAddress, log, timeout);
  }

  /**
   * Starts {@code weir run --jobmanager ADDRESS <runArguments>}: a client that waits for the job.
   */
  public JobProcess submit(List<String> runArguments, Path log) throws IOException {
    List<String> arguments = new ArrayList<>(List.of("run", "--jobmanager", address()));
    arguments.addAll(runArguments);
    return JobProcess.startCommand(arguments, null, log);
  }

  @Override
  public void close() throws InterruptedException {
    for (int i = processes.size() - 1; i >= 0; i--) {
      processes.get(i).close();
    }
  }
}
