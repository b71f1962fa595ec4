package io.weir.cli.cluster;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.weir.cluster.ClusterClient;
import io.weir.cluster.CommittedOutput;
import io.weir.cluster.KeyedCountJob;
import io.weir.cluster.rpc.ClientMessages.JobStatus;
import io.weir.cluster.rpc.ClusterConnectException;
import io.weir.cluster.rpc.HostAndPort;
import io.weir.cluster.rpc.JobSubmission;
import java.io.IOException;
import java.net.ServerSocket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.assertj.core.api.Assertions;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** A job manager and two task managers as separate processes, killed with SIGKILL. */
class ClusterProcessesTest {
  @TempDir Path directory;
  private final List<Process> processes = new ArrayList<>();
  private int port;

  @AfterEach
  void killAll() throws InterruptedException {
    for (Process process : processes) {
      process.destroyForcibly().waitFor();
    }
  }

  @Test
  void when_taskManagerKilledMidRun_then_jobRecoversOnRemainingSlotsExactlyOnce() throws Exception {
    startCluster("");
    Path output = directory.resolve("out");
    try (ClusterClient client = client("")) {
      JobStatus job = client.submit(submission(output, 20_000, 1_500));
      await()
          .atMost(Duration.ofSeconds(60))
          .until(() -> client.job(job.jobId()).lastCheckpointId() >= 1);

      processes.get(2).destroyForcibly().waitFor();

      await().atMost(Duration.ofSeconds(90)).until(() -> client.job(job.jobId()).isTerminal());
      JobStatus finished = client.job(job.jobId());
      assertThat(finished.state()).isEqualTo("FINISHED");
      assertThat(finished.restarts()).isGreaterThanOrEqualTo(1);
    }
    Map<String, Integer> counts = CommittedOutput.lineCounts(output);
    assertThat(counts).hasSize(20_000);
    assertThat(counts.values()).containsOnly(1);
  }

  @Test
  void when_taskManagerStopsHeartbeating_then_itIsLostAfterTheTimeoutAndTheJobRecovers()
      throws Exception {
    startCluster("");
    Path output = directory.resolve("out");
    try (ClusterClient client = client("")) {
      JobStatus job = client.submit(submission(output, 12_000, 1_500));
      await()
          .atMost(Duration.ofSeconds(60))
          .until(() -> client.job(job.jobId()).lastCheckpointId() >= 1);

      // A frozen process keeps its connections open: only the missing heartbeats can tell.
      signal(processes.get(2), "-STOP");
      await()
          .atMost(Duration.ofSeconds(20))
          .until(() -> Files.readString(jobManagerLog()).contains("no heartbeat for 2000 ms"));

      await().atMost(Duration.ofSeconds(90)).until(() -> client.job(job.jobId()).isTerminal());
      assertThat(client.job(job.jobId()).state()).isEqualTo("FINISHED");
    } finally {
      signal(processes.get(2), "-CONT");
    }
    Map<String, Integer> counts = CommittedOutput.lineCounts(output);
    assertThat(counts).hasSize(12_000);
    assertThat(counts.values()).containsOnly(1);
  }

  private Path jobManagerLog() {
    return directory.resolve("jobmanager-0.log");
  }

  private static void signal(Process process, String signal) throws Exception {
    new ProcessBuilder("kill", signal, String.valueOf(process.pid())).inheritIO().start().waitFor();
  }

  @Test
  void when_wholeClusterKilledAndJobResubmitted_then_itResumesFromLatestCheckpointExactlyOnce()
      throws Exception {
    startCluster("");
    Path output = directory.resolve("out");
    try (ClusterClient client = client("")) {
      JobStatus job = client.submit(submission(output, 20_000, 1_500));
      await()
          .atMost(Duration.ofSeconds(60))
          .until(() -> client.job(job.jobId()).lastCheckpointId() >= 2);
    }
    for (Process process : processes) {
      process.destroyForcibly().waitFor();
    }
    processes.clear();

    startCluster("");
    try (ClusterClient client = client("")) {
      JobStatus resumed = client.submit(submission(output, 20_000, 1_500));
      assertThat(resumed.message()).startsWith("resuming from its latest completed checkpoint");
      await().atMost(Duration.ofSeconds(90)).until(() -> client.job(resumed.jobId()).isTerminal());
      assertThat(client.job(resumed.jobId()).state()).isEqualTo("FINISHED");
    }
    Map<String, Integer> counts = CommittedOutput.lineCounts(output);
    assertThat(counts).hasSize(20_000);
    assertThat(counts.values()).containsOnly(1);
  }

  @Test
  void when_wrongSecretOrUnknownJobOrWrongHost_then_oneClearErrorEach() throws Exception {
    startCluster("s3cret");
    try (ClusterClient wrongSecret = client("nope")) {
      Assertions.assertThatThrownBy(wrongSecret::list)
          .isInstanceOf(ClusterConnectException.class)
          .hasMessage(
              "The job manager at 127.0.0.1:" + port + " refused the connection: wrong secret");
    }
    try (ClusterClient client = client("s3cret")) {
      Assertions.assertThatThrownBy(() -> client.job("0000"))
          .isInstanceOf(IllegalArgumentException.class)
          .hasMessage("No job with id 0000 on this job manager");
    }
    int closedPort = freePort();
    try (ClusterClient nobody = new ClusterClient(new HostAndPort("127.0.0.1", closedPort), "")) {
      Assertions.assertThatThrownBy(nobody::list)
          .isInstanceOf(ClusterConnectException.class)
          .hasMessageStartingWith("Cannot reach the job manager at 127.0.0.1:" + closedPort + ":");
    }
  }

  private JobSubmission submission(Path output, long count, long rate) {
    return new JobSubmission(
        KeyedCountJob.class.getName(),
        List.of(output.toString(), "" + count, "" + rate),
        null,
        null,
        null,
        false);
  }

  private ClusterClient client(String secret) {
    return new ClusterClient(new HostAndPort("127.0.0.1", port), secret);
  }

  private void startCluster(String secret) throws Exception {
    if (port == 0) {
      port = freePort();
    }
    List<String> secretArgs = secret.isEmpty() ? List.of() : List.of("--secret", secret);
    List<String> jobManager =
        new ArrayList<>(
            List.of(
                "jobmanager",
                "--port",
                "" + port,
                "--heartbeat-timeout-ms",
                "2000",
                "--checkpoint-dir",
                directory.resolve("checkpoints").toString()));
    jobManager.addAll(secretArgs);
    start("jobmanager-" + processes.size(), jobManager);
    try (ClusterClient client = client(secret)) {
      await().atMost(Duration.ofSeconds(30)).ignoreExceptions().until(() -> client.list() != null);
    }
    for (int i = 1; i <= 2; i++) {
      List<String> taskManager =
          new ArrayList<>(
              List.of("taskmanager", "--jobmanager", "127.0.0.1:" + port, "--slots", "2"));
      taskManager.addAll(secretArgs);
      Path log = directory.resolve("taskmanager-" + i + "-" + processes.size() + ".log");
      start(log, taskManager);
      await()
          .atMost(Duration.ofSeconds(30))
          .until(() -> Files.exists(log) && Files.readString(log).contains("offers"));
    }
  }

  private void start(String name, List<String> args) throws IOException {
    start(directory.resolve(name + ".log"), args);
  }

  private void start(Path log, List<String> args) throws IOException {
    List<String> command = new ArrayList<>();
    command.add(Path.of(System.getProperty("java.home"), "bin", "java").toString());
    command.add("-Xmx384m");
    command.add("-XX:+UseSerialGC");
    command.add("-cp");
    command.add(System.getProperty("java.class.path"));
    command.add("io.weir.cli.WeirCli");
    command.addAll(args);
    processes.add(
        new ProcessBuilder(command).redirectErrorStream(true).redirectOutput(log.toFile()).start());
  }

  private static int freePort() throws IOException {
    try (ServerSocket socket = new ServerSocket(0)) {
      return socket.getLocalPort();
    }
  }
}
