package io.weir.cli.cluster;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.weir.cli.WeirCli;
import io.weir.cluster.ClusterClient;
import io.weir.cluster.CommittedOutput;
import io.weir.cluster.KeyedCountJob;
import io.weir.cluster.rpc.ClientMessages.JobStatus;
import io.weir.cluster.rpc.HostAndPort;
import io.weir.devservers.process.FreePorts;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Map;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** {@code weir cluster start|stop} and {@code weir run} against the cluster they manage. */
class ClusterCommandTest {
  @TempDir Path directory;
  private Path configuration;
  private Path state;
  private int port;

  @AfterEach
  void stopCluster() {
    if (configuration != null) {
      WeirCli.run("cluster", "stop", "--conf", configuration.toString());
    }
  }

  @Test
  void when_clusterWasKilledAndStartedAgain_then_runWithoutJobManagerSubmitsToIt()
      throws Exception {
    // given: a cluster whose processes were all killed with SIGKILL, leaving their pid files
    configure();
    startCluster();
    killAllWithSigkill();

    // when: started again, and a job run without naming the job manager
    startCluster();
    Path output = directory.resolve("out");
    String printed =
        stdoutOf(
            "run",
            "--conf",
            configuration.toString(),
            "--detached",
            KeyedCountJob.class.getName(),
            output.toString(),
            "3000",
            "3000");

    // then: the job ran on the cluster, every id once
    assertThat(printed).contains("submitting to the cluster started by 'weir cluster start'");
    try (ClusterClient client = new ClusterClient(new HostAndPort("127.0.0.1", port), "")) {
      String jobId = client.list().get(0).jobId();
      await().atMost(Duration.ofSeconds(60)).until(() -> client.job(jobId).isTerminal());
      JobStatus finished = client.job(jobId);
      assertThat(finished.state()).isEqualTo("FINISHED");
    }
    Map<String, Integer> counts = CommittedOutput.lineCounts(output);
    assertThat(counts).hasSize(3000);
    assertThat(counts.values()).containsOnly(1);

    // then: the status lists the lone job manager and its task manager, no slot in use
    String status = stdoutOf("cluster", "status", "--conf", configuration.toString());
    assertThat(status)
        .contains("127.0.0.1:" + port + " ")
        .contains(Files.readString(state.resolve("jobmanager.pid")).strip() + " ")
        .contains("lone (no HA)")
        .containsPattern("tm-\\S+ +127.0.0.1:[0-9]+ +[0-9]+ +0/2");
  }

  private void configure() throws IOException {
    port = FreePorts.pick();
    state = directory.resolve("cluster");
    configuration = directory.resolve("weir.yaml");
    Files.writeString(
        configuration,
        "jobmanager:\n  port: "
            + port
            + "\ncluster.state.dir: "
            + state
            + "\ncheckpoints.dir: "
            + directory.resolve("checkpoints")
            + "\n");
  }

  private void startCluster() {
    assertThat(WeirCli.run("cluster", "start", "--conf", configuration.toString())).isZero();
    await()
        .atMost(Duration.ofSeconds(30))
        .until(
            () ->
                Files.exists(state.resolve("taskmanager-1.log"))
                    && Files.readString(state.resolve("taskmanager-1.log")).contains("offers"));
  }

  private void killAllWithSigkill() throws IOException {
    try (Stream<Path> files = Files.list(state)) {
      for (Path pidFile : files.filter(f -> f.toString().endsWith(".pid")).toList()) {
        long pid = Long.parseLong(Files.readString(pidFile).strip());
        ProcessHandle.of(pid)
            .ifPresent(
                process -> {
                  process.destroyForcibly();
                  process.onExit().join();
                });
      }
    }
    assertThat(state.resolve("jobmanager.pid")).exists();
  }

  private static String stdoutOf(String... args) {
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    PrintStream original = System.out;
    System.setOut(new PrintStream(out, true, StandardCharsets.UTF_8));
    try {
      assertThat(WeirCli.run(args)).isZero();
    } finally {
      System.setOut(original);
    }
    return out.toString(StandardCharsets.UTF_8);
  }
}
