package io.weir.cli.cluster;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

import io.weir.cli.WeirCli;
import io.weir.cluster.ClusterClient;
import io.weir.cluster.CommittedOutput;
import io.weir.cluster.rpc.ClientMessages.JobStatus;
import io.weir.cluster.rpc.HostAndPort;
import io.weir.cluster.rpc.JobJar;
import io.weir.cluster.rpc.JobSubmission;
import io.weir.devservers.process.FreePorts;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A job from a jar that no process of the cluster has on its class path: {@code weir run} ships it
 * to a cluster of one job manager and two task managers, each its own process.
 */
class ClusterJarTest {
  @TempDir Path directory;
  private Path configuration;
  private Path state;
  private String jobManager;

  @BeforeEach
  void startCluster() throws IOException {
    int port = FreePorts.pick();
    jobManager = "127.0.0.1:" + port;
    configuration = directory.resolve("weir.yaml");
    Files.writeString(
        configuration,
        "jobmanager.port: "
            + port
            + "\ncheckpoints.dir: "
            + directory.resolve("checkpoints")
            + "\n");
    state = directory.resolve("cluster");
    assertThat(
            WeirCli.run(
                "cluster",
                "start",
                "--taskmanagers",
                "2",
                "--conf",
                configuration.toString(),
                "--state-dir",
                state.toString()))
        .isZero();
    await()
        .atMost(Duration.ofSeconds(30))
        .until(() -> taskManagerLog(1).contains("offers") && taskManagerLog(2).contains("offers"));
  }

  @AfterEach
  void stopCluster() {
    WeirCli.run(
        "cluster", "stop", "--conf", configuration.toString(), "--state-dir", state.toString());
  }

  @Test
  void when_jobJarIsShippedAndATaskManagerKilled_then_itRecoversFromItsJarExactlyOnce()
      throws Exception {
    Path jar = ShippedJobJar.build(directory, "count", ShippedJobJar.JOB_CLASS);
    assertThatThrownBy(() -> Class.forName(ShippedJobJar.JOB_CLASS))
        .isInstanceOf(ClassNotFoundException.class);
    Path output = directory.resolve("out");

    int exitCode =
        WeirCli.run(
            "run",
            "--jobmanager",
            jobManager,
            "--detached",
            jar.toString(),
            output.toString(),
            "20000",
            "1500");

    assertThat(exitCode).isZero();
    try (ClusterClient client = client()) {
      String jobId = client.list().get(0).jobId();
      await().atMost(Duration.ofSeconds(60)).until(() -> client.job(jobId).lastCheckpointId() >= 1);
      long pid = Long.parseLong(Files.readString(state.resolve("taskmanager-2.pid")).strip());
      ProcessHandle.of(pid).ifPresent(ProcessHandle::destroyForcibly);
      // The restart runs on the surviving task manager, from the jar it cached on the first
      // deployment: the job manager does not send it again.
      await().atMost(Duration.ofSeconds(90)).until(() -> client.job(jobId).isTerminal());
      JobStatus finished = client.job(jobId);
      assertThat(finished.state()).isEqualTo("FINISHED");
      assertThat(finished.restarts()).isGreaterThanOrEqualTo(1);
    }
    Map<String, Integer> counts = CommittedOutput.lineCounts(output);
    assertThat(counts).hasSize(20_000).containsKey("shipped-19999");
    assertThat(counts.values()).containsOnly(1);
  }

  @Test
  void when_jarLacksTheJobClassOrIsMissing_then_submitFailsWithOneLine() throws Exception {
    Path jar = ShippedJobJar.build(directory, "broken", "shipped.Missing");
    Path noMain = ShippedJobJar.build(directory, "no-main", null);

    assertThat(runError(jar.toString()))
        .isEqualTo("weir: The jar " + jar + " has no class shipped.Missing\n");
    assertThat(runError(noMain.toString()))
        .isEqualTo(
            "weir: The jar "
                + noMain
                + " names no Main-Class in its manifest: give the job class with -c\n");
    assertThat(runError(directory.resolve("none.jar").toString()))
        .isEqualTo("weir: The job jar " + directory.resolve("none.jar") + " does not exist\n");

    // The job manager checks too, for clients other than the command line.
    byte[] bytes = Files.readAllBytes(jar);
    JobSubmission submission =
        new JobSubmission(
            "shipped.Missing", List.of(), null, null, null, false, JobJar.of("broken.jar", bytes));
    try (ClusterClient client = client()) {
      assertThatThrownBy(() -> client.submit(submission, bytes))
          .isInstanceOf(IllegalArgumentException.class)
          .hasMessage("The jar broken.jar has no class shipped.Missing");
    }
  }

  private String runError(String jar) {
    ByteArrayOutputStream err = new ByteArrayOutputStream();
    PrintStream original = System.err;
    System.setErr(new PrintStream(err, true, StandardCharsets.UTF_8));
    try {
      assertThat(WeirCli.run("run", "--jobmanager", jobManager, jar, "out")).isEqualTo(1);
    } finally {
      System.setErr(original);
    }
    return err.toString(StandardCharsets.UTF_8);
  }

  private String taskManagerLog(int index) throws IOException {
    Path log = state.resolve("taskmanager-" + index + ".log");
    return Files.exists(log) ? Files.readString(log) : "";
  }

  private ClusterClient client() {
    return new ClusterClient(HostAndPort.parse("--jobmanager", jobManager), "");
  }
}
