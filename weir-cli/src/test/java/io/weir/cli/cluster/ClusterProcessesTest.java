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
import io.weir.devservers.process.FreePorts;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.function.Predicate;
import java.util.regex.Pattern;
import org.assertj.core.api.Assertions;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** A job manager and two task managers as separate processes, killed with SIGKILL. */
class ClusterProcessesTest {
  @TempDir Path directory;
  private LocalClusterProcesses cluster;

  @AfterEach
  void killAll() throws InterruptedException {
    if (cluster != null) {
      cluster.close();
    }
  }

  @Test
  void when_taskManagerKilledMidRun_then_jobRecoversOnRemainingSlotsExactlyOnce() throws Exception {
    cluster = new LocalClusterProcesses(directory, "").start();
    Path output = directory.resolve("out");
    try (ClusterClient client = cluster.client()) {
      JobStatus job = submitAndAwaitCheckpoint(client, output, 20_000, 1);

      LocalClusterProcesses.kill(cluster.taskManager(2));

      JobStatus finished = awaitFinished(client, job);
      assertThat(finished.restarts()).isGreaterThanOrEqualTo(1);
    }
    assertEveryIdOnce(output, 20_000);
  }

  @Test
  void when_jobManagerKilledAndRestarted_then_taskManagersRegisterAgainAndTheJobResumes()
      throws Exception {
    cluster = new LocalClusterProcesses(directory, "").start();
    Path output = directory.resolve("out");
    try (ClusterClient client = cluster.client()) {
      submitAndAwaitCheckpoint(client, output, 20_000, 2);
    }

    cluster.killJobManager();
    cluster.startJobManager();

    // The same task manager processes offer their slots to the new job manager.
    awaitEveryTaskManagerLog(
        Duration.ofSeconds(30), log -> log.split("offers", -1).length - 1 == 2);
    resubmitAndAwaitResumedRun(output, 20_000);
  }

  @Test
  void when_jobManagerHangsPastTheTimeout_then_taskManagersStopTheirTasksAndTheJobRecovers()
      throws Exception {
    cluster = new LocalClusterProcesses(directory, "").start();
    Path output = directory.resolve("out");
    try (ClusterClient client = cluster.client()) {
      JobStatus job = submitAndAwaitCheckpoint(client, output, 15_000, 1);

      // A hung job manager answers no heartbeat: the task managers stop their tasks themselves.
      LocalClusterProcesses.signal(cluster.jobManager(), "-STOP");
      try {
        awaitEveryTaskManagerLog(
            Duration.ofSeconds(20), log -> log.contains("No answer from the job manager"));
      } finally {
        LocalClusterProcesses.signal(cluster.jobManager(), "-CONT");
      }

      // They register again; the job restarts from its latest checkpoint and finishes.
      JobStatus finished = awaitFinished(client, job);
      assertThat(finished.restarts()).isGreaterThanOrEqualTo(1);
    }
    assertEveryIdOnce(output, 15_000);
  }

  @Test
  void when_taskManagerStopsHeartbeating_then_itIsLostAfterTheTimeoutAndTheJobRecovers()
      throws Exception {
    cluster = new LocalClusterProcesses(directory, "").start();
    Path output = directory.resolve("out");
    try (ClusterClient client = cluster.client()) {
      JobStatus job = submitAndAwaitCheckpoint(client, output, 12_000, 1);

      // A frozen process keeps its connections open: only the missing heartbeats can tell.
      LocalClusterProcesses.signal(cluster.taskManager(2), "-STOP");
      await()
          .atMost(Duration.ofSeconds(20))
          .until(
              () ->
                  Pattern.compile("no heartbeat for \\d+ ms \\(timeout 2000 ms\\)")
                      .matcher(Files.readString(cluster.jobManagerLog()))
                      .find());

      awaitFinished(client, job);
    } finally {
      LocalClusterProcesses.signal(cluster.taskManager(2), "-CONT");
    }
    assertEveryIdOnce(output, 12_000);
  }

  @Test
  void when_wholeClusterKilledAndJobResubmitted_then_itResumesFromLatestCheckpointExactlyOnce()
      throws Exception {
    cluster = new LocalClusterProcesses(directory, "").start();
    Path output = directory.resolve("out");
    try (ClusterClient client = cluster.client()) {
      submitAndAwaitCheckpoint(client, output, 20_000, 2);
    }
    cluster.killAll();

    cluster.start();
    resubmitAndAwaitResumedRun(output, 20_000);
  }

  @Test
  void when_wrongSecretOrUnknownJobOrWrongHost_then_oneClearErrorEach() throws Exception {
    cluster = new LocalClusterProcesses(directory, "s3cret").start();
    int port = cluster.port();
    try (ClusterClient wrongSecret = cluster.client("nope")) {
      Assertions.assertThatThrownBy(wrongSecret::list)
          .isInstanceOf(ClusterConnectException.class)
          .hasMessage(
              "The job manager at 127.0.0.1:" + port + " refused the connection: wrong secret");
    }
    try (ClusterClient client = cluster.client()) {
      Assertions.assertThatThrownBy(() -> client.job("0000"))
          .isInstanceOf(IllegalArgumentException.class)
          .hasMessage("No job with id 0000 on this job manager");
    }
    int closedPort = FreePorts.pick();
    try (ClusterClient nobody = new ClusterClient(new HostAndPort("127.0.0.1", closedPort), "")) {
      Assertions.assertThatThrownBy(nobody::list)
          .isInstanceOf(ClusterConnectException.class)
          .hasMessageStartingWith("Cannot reach the job manager at 127.0.0.1:" + closedPort + ":");
    }
  }

  /** Resubmits the job without -s: it resumes from its latest checkpoint and ends exactly-once. */
  private void resubmitAndAwaitResumedRun(Path output, int count) throws Exception {
    try (ClusterClient client = cluster.client()) {
      JobStatus resumed = client.submit(submission(output, count, 1_500));
      assertThat(resumed.message()).startsWith("resuming from its latest completed checkpoint");
      awaitFinished(client, resumed);
    }
    assertEveryIdOnce(output, count);
  }

  private void awaitEveryTaskManagerLog(Duration timeout, Predicate<String> condition) {
    for (int number = 1; number <= LocalClusterProcesses.TASK_MANAGERS; number++) {
      Path log = cluster.taskManagerLog(number);
      await().atMost(timeout).until(() -> condition.test(Files.readString(log)));
    }
  }

  private static JobStatus submitAndAwaitCheckpoint(
      ClusterClient client, Path output, long count, long checkpointId) throws Exception {
    JobStatus job = client.submit(submission(output, count, 1_500));
    await()
        .atMost(Duration.ofSeconds(60))
        .until(() -> client.job(job.jobId()).lastCheckpointId() >= checkpointId);
    return job;
  }

  private static JobStatus awaitFinished(ClusterClient client, JobStatus job) throws Exception {
    await().atMost(Duration.ofSeconds(90)).until(() -> client.job(job.jobId()).isTerminal());
    JobStatus finished = client.job(job.jobId());
    assertThat(finished.state()).isEqualTo("FINISHED");
    return finished;
  }

  private static void assertEveryIdOnce(Path output, int count) throws Exception {
    Map<String, Integer> counts = CommittedOutput.lineCounts(output);
    assertThat(counts).hasSize(count);
    assertThat(counts.values()).containsOnly(1);
  }

  private static JobSubmission submission(Path output, long count, long rate) {
    return new JobSubmission(
        KeyedCountJob.class.getName(),
        List.of(output.toString(), "" + count, "" + rate),
        null,
        null,
        null,
        false);
  }
}
