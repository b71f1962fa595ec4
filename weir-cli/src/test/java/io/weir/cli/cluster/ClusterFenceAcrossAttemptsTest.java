package io.weir.cli.cluster;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.weir.cluster.ClusterClient;
import io.weir.cluster.rpc.ClientMessages.JobStatus;
import io.weir.kafka.testing.KafkaBrokerExtension;
import io.weir.kafka.testing.KafkaTestClients;
import io.weir.runtime.failpoint.FailpointNames;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;

/**
 * A sink's fence held on one task manager after its attempt failed, while the job's next attempt
 * runs on another task manager alone: the next attempt must not begin before the fence ended, or
 * the fence aborts a transaction it pre-committed under one of the fenced ids.
 *
 * <p>Placement is forced through the slot assignment, which gives a job of parallelism 1 the slot
 * of the live task manager whose id sorts first: attempt 0 runs on the only task manager, and
 * during the restart delay a task manager whose id sorts before it registers, so attempt 1 runs
 * there.
 */
@Timeout(value = 10, unit = TimeUnit.MINUTES)
class ClusterFenceAcrossAttemptsTest {
  private static final long RECORDS = 2000;
  private static final long RECORDS_PER_SECOND = 100;
  private static final long RESTART_DELAY_SECONDS = 40;

  @RegisterExtension
  static final KafkaBrokerExtension kafka =
      new KafkaBrokerExtension(config -> config.withStartTimeout(Duration.ofMinutes(3)));

  @TempDir Path directory;
  private LocalClusterProcesses cluster;
  private int taskManagersStarted;

  @AfterEach
  void stop() throws InterruptedException {
    if (cluster != null) {
      cluster.close();
    }
  }

  @Test
  void when_theFenceOfAFailedAttemptIsHeldOnAnotherTaskManager_then_theNextAttemptWaitsForIt()
      throws Exception {
    // given: the fence of attempt 0 held for longer than the restart delay on the only task
    // manager, whose id sorts late; attempt 0 fails at its first snapshot
    String output = "cluster-late-fence-out";
    KafkaTestClients.createTopic(kafka.bootstrapServers(), output, 1);
    cluster = new LocalClusterProcesses(directory, "");
    cluster.startJobManager();
    int fenceHolder =
        startTaskManagerUntil(
            id -> id.compareTo("tm-a") >= 0,
            FailpointNames.SINK_FENCE_BEFORE
                + "=pause(75000)@1,"
                + FailpointNames.TASK_SNAPSHOT_AFTER
                + "=throw@1");
    try (ClusterClient client = cluster.client()) {
      JobStatus job =
          client.submit(
              FenceHeldRuns.submission(
                  kafka.bootstrapServers(),
                  output,
                  "cluster-late-fence",
                  RECORDS,
                  RECORDS_PER_SECOND,
                  RESTART_DELAY_SECONDS));
      String attempt0 = job.jobId() + "#0";
      String attempt1 = job.jobId() + "#1";
      await()
          .atMost(Duration.ofMinutes(2))
          .until(() -> log(fenceHolder).contains("Deployed 1 subtasks of " + attempt0));

      // when: during the restart delay a task manager whose id sorts first registers, its first
      // commit held so that attempt 1's transactions take the fenced ids 2-4
      String holderId = FenceHeldRuns.taskManagerId(cluster.taskManagerLog(fenceHolder));
      int next =
          startTaskManagerUntil(
              id -> id.compareTo(holderId) < 0,
              FailpointNames.SINK_COMMIT_BEFORE + "=pause(60000)@1");
      try {
        await()
            .atMost(Duration.ofMinutes(6))
            .pollInterval(Duration.ofSeconds(1))
            .until(() -> client.job(job.jobId()).isTerminal());
      } catch (org.awaitility.core.ConditionTimeoutException e) {
        throw new AssertionError("The job did not end: " + client.job(job.jobId()), e);
      }

      // then: attempt 1 ran on the other task manager alone, after the fence ended, and every id
      // is committed once
      assertThat(log(next)).as("attempt 1 placed").contains("Deployed 1 subtasks of " + attempt1);
      assertThat(log(fenceHolder)).as("attempt 1 placed").doesNotContain(attempt1);
      JobStatus ended = client.job(job.jobId());
      assertThat(ended.state()).as(ended.message()).isEqualTo("FINISHED");
      assertThat(Files.readString(cluster.jobManagerLog()))
          .contains("Attempt " + attempt0 + " ended on every task manager: {" + holderId + "=");
      Map<String, Long> expected = FenceHeldRuns.eachIdOnce(RECORDS);
      await()
          .atMost(Duration.ofSeconds(60))
          .pollInterval(Duration.ofMillis(500))
          .untilAsserted(
              () ->
                  assertThat(FenceHeldRuns.committedCounts(kafka.bootstrapServers(), output))
                      .isEqualTo(expected));
    }
  }

  /**
   * Starts task managers with {@code failpoints} until one's id passes {@code wanted}, killing the
   * others; its number.
   */
  private int startTaskManagerUntil(java.util.function.Predicate<String> wanted, String failpoints)
      throws Exception {
    // Each start passes with a chance of at least a third.
    for (int tries = 0; tries < 16; tries++) {
      int number = ++taskManagersStarted;
      cluster.withFailpoints(number, failpoints);
      cluster.startTaskManager();
      if (wanted.test(FenceHeldRuns.taskManagerId(cluster.taskManagerLog(number)))) {
        return number;
      }
      LocalClusterProcesses.kill(cluster.taskManager(number));
    }
    throw new AssertionError("No task manager with a fitting id in 16 starts");
  }

  private String log(int taskManager) throws IOException {
    return Files.readString(cluster.taskManagerLog(taskManager));
  }
}
