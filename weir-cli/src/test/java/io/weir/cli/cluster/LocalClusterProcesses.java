package io.weir.cli.cluster;

import static org.awaitility.Awaitility.await;

import io.weir.cluster.ClusterClient;
import io.weir.cluster.rpc.HostAndPort;
import io.weir.devservers.process.FreePorts;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * A job manager and two task managers of two slots each, every one its own JVM ({@code weir
 * jobmanager|taskmanager} with this JVM's class path), logging at INFO into files of {@code
 * directory}. They can be killed with SIGKILL and started again on the same port and checkpoint
 * directory, as the seed's operator would after a crash.
 */
final class LocalClusterProcesses implements AutoCloseable {
  static final int TASK_MANAGERS = 2;

  private final Path directory;
  private final String secret;
  private final int port;
  private final List<Process> taskManagers = new ArrayList<>();
  private final List<Path> taskManagerLogs = new ArrayList<>();
  private final Map<Integer, String> failpoints = new HashMap<>();
  private Process jobManager;
  private String jobManagerFailpoints;
  private Path jobManagerLog;
  private int starts;

  /** {@code secret} may be empty (no secret). */
  LocalClusterProcesses(Path directory, String secret) throws IOException {
    this.directory = directory;
    this.secret = secret;
    this.port = FreePorts.pick();
  }

  /**
   * Arms failpoints (as {@code -Dweir.failpoints}) in the task manager of that number when it
   * starts, e.g. to halt it at an exact step of the checkpoint protocol.
   */
  LocalClusterProcesses withFailpoints(int taskManager, String configuration) {
    failpoints.put(taskManager, configuration);
    return this;
  }

  /**
   * Arms failpoints in the next job manager to start (that one only), e.g. to halt it after a
   * checkpoint completed and before any sink was notified.
   */
  LocalClusterProcesses withJobManagerFailpoints(String configuration) {
    jobManagerFailpoints = configuration;
    return this;
  }

  /** Starts the job manager, then the task managers, and waits until each is ready. */
  LocalClusterProcesses start() throws IOException {
    startJobManager();
    for (int i = 1; i <= TASK_MANAGERS; i++) {
      startTaskManager();
    }
    return this;
  }

  /** Starts a job manager on the cluster's port and waits until it answers. */
  void startJobManager() throws IOException {
    List<String> args =
        new ArrayList<>(
            List.of(
                "jobmanager",
                "--port",
                "" + port,
                "--heartbeat-timeout-ms",
                "2000",
                "--checkpoint-dir",
                checkpointDirectory().toString()));
    args.addAll(secretArgs());
    jobManagerLog = directory.resolve("jobmanager-" + starts++ + ".log");
    jobManager = start(jobManagerLog, args, jobManagerFailpoints);
    jobManagerFailpoints = null;
    try (ClusterClient client = client(secret)) {
      await().atMost(Duration.ofSeconds(90)).ignoreExceptions().until(() -> client.list() != null);
    }
  }

  /** SIGKILL to the job manager alone; the task managers live on. */
  void killJobManager() throws InterruptedException {
    kill(jobManager);
  }

  /** Starts one more task manager and waits until it offered its slots. */
  void startTaskManager() throws IOException {
    List<String> args =
        new ArrayList<>(
            List.of("taskmanager", "--jobmanager", "127.0.0.1:" + port, "--slots", "2"));
    args.addAll(secretArgs());
    int number = taskManagers.size() + 1;
    Path log = directory.resolve("taskmanager-" + number + ".log");
    taskManagers.add(start(log, args, failpoints.get(number)));
    taskManagerLogs.add(log);
    await()
        .atMost(Duration.ofSeconds(90))
        .until(() -> Files.exists(log) && Files.readString(log).contains("offers"));
  }

  /** The task managers started so far, in order, the killed ones too (1-based as their logs). */
  Process taskManager(int number) {
    return taskManagers.get(number - 1);
  }

  Path taskManagerLog(int number) {
    return taskManagerLogs.get(number - 1);
  }

  Process jobManager() {
    return jobManager;
  }

  Path jobManagerLog() {
    return jobManagerLog;
  }

  Path checkpointDirectory() {
    return directory.resolve("checkpoints");
  }

  int port() {
    return port;
  }

  ClusterClient client() {
    return client(secret);
  }

  ClusterClient client(String secret) {
    return new ClusterClient(new HostAndPort("127.0.0.1", port), secret);
  }

  /**
   * SIGKILL to every process of the cluster at once, as {@code kill -9}, the task managers first so
   * that none of them can react to the loss of the job manager; start() brings up a new cluster.
   */
  void killAll() throws InterruptedException {
    List<Process> all = new ArrayList<>(taskManagers);
    if (jobManager != null) {
      all.add(jobManager);
    }
    all.forEach(Process::destroyForcibly);
    for (Process process : all) {
      process.waitFor();
    }
  }

  static void kill(Process process) throws InterruptedException {
    process.destroyForcibly().waitFor();
  }

  /** Sends a signal such as {@code -STOP} (freezes the process) or {@code -CONT}, if alive. */
  static void signal(Process process, String signal) throws Exception {
    if (!process.isAlive()) {
      return;
    }
    new ProcessBuilder("kill", signal, String.valueOf(process.pid())).inheritIO().start().waitFor();
  }

  @Override
  public void close() throws InterruptedException {
    killAll();
  }

  private List<String> secretArgs() {
    return secret.isEmpty() ? List.of() : List.of("--secret", secret);
  }

  static Process start(Path log, List<String> args, String failpoints) throws IOException {
    List<String> command = new ArrayList<>();
    command.add(Path.of(System.getProperty("java.home"), "bin", "java").toString());
    command.add("-Xmx384m");
    command.add("-XX:+UseSerialGC");
    if (failpoints != null) {
      command.add("-Dweir.failpoints=" + failpoints);
    }
    command.add("-cp");
    command.add(System.getProperty("java.class.path"));
    command.add("io.weir.cli.WeirCli");
    command.addAll(args);
    ProcessBuilder builder = new ProcessBuilder(command).redirectErrorStream(true);
    builder.environment().put("WEIR_LOG_LEVEL", "INFO");
    builder.environment().remove("WEIR_FAILPOINTS");
    builder.redirectOutput(ProcessBuilder.Redirect.appendTo(log.toFile()));
    return builder.start();
  }
}
