package io.weir.cli.cluster;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.weir.cli.WeirCli;
import io.weir.cluster.ClusterClient;
import io.weir.cluster.ha.LeaderInfo;
import io.weir.kafka.testing.KafkaBrokerExtension;
import io.weir.kafka.testing.KafkaTestClients;
import io.weir.runtime.failpoint.FailpointNames;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.regex.Pattern;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;

/**
 * A sink's fence held on one task manager while the leader that deployed it is killed: the new
 * leader knows nothing of that attempt, and another task manager registers with it at once, while
 * the one holding the fence is still cancelling. The new leader must deploy the recovered job only
 * after that fence ended, or the fence may abort a transaction the job begins under a fenced id.
 */
@Timeout(value = 10, unit = TimeUnit.MINUTES)
class LeaderChangeFenceTest {
  private static final long RECORDS = 3000;
  private static final long RECORDS_PER_SECOND = 100;
  private static final long FENCE_HELD_MILLIS = 50_000;
  private static final String DEPLOYED = "Deployed 1 subtasks of ";
  private static final String LEFT_THE_LEADER = "lost the leader at";

  @RegisterExtension
  static final KafkaBrokerExtension kafka =
      new KafkaBrokerExtension(config -> config.withStartTimeout(Duration.ofMinutes(3)));

  @TempDir static Path zooKeeperDirectory;
  private static String zooKeeperUrl;

  @TempDir Path directory;
  private HaClusterProcesses cluster;

  @BeforeAll
  static void startZooKeeper() throws Exception {
    int port = LocalClusterProcesses.freePort();
    assertThat(
            WeirCli.run(
                "zookeeper", "start", "--dir", zooKeeperDirectory.toString(), "--port", "" + port))
        .isZero();
    zooKeeperUrl = "zookeeper://127.0.0.1:" + port + "/leader-change-fence";
  }

  @AfterAll
  static void stopZooKeeper() {
    WeirCli.run("zookeeper", "stop", "--dir", zooKeeperDirectory.toString());
  }

  @AfterEach
  void stop() throws InterruptedException {
    if (cluster != null) {
      cluster.close();
    }
  }

  @Test
  void when_theLeaderIsKilledWhileAFenceIsHeld_then_theNewLeaderDeploysAfterTheFenceEnded()
      throws Exception {
    // given: two job managers and one task manager, which holds the fence of the job's first
    // attempt; then a second task manager
    String output = "leader-change-fence-out";
    KafkaTestClients.createTopic(kafka.bootstrapServers(), output, 1);
    cluster =
        new HaClusterProcesses(
            directory,
            Path.of("target", "leader-change-fence-logs").toAbsolutePath(),
            zooKeeperUrl);
    cluster.startJobManagers();
    int holder =
        cluster.startTaskManager(
            FailpointNames.SINK_FENCE_BEFORE + "=pause(" + FENCE_HELD_MILLIS + ")@1");
    LeaderInfo deposed = cluster.leader().orElseThrow();
    Process deposedProcess = cluster.leaderProcess();
    String jobId;
    try (ClusterClient client = cluster.leaderClient()) {
      jobId =
          client
              .submit(
                  FenceHeldRuns.submission(
                      kafka.bootstrapServers(),
                      output,
                      "leader-change-fence",
                      RECORDS,
                      RECORDS_PER_SECOND,
                      1))
              .jobId();
    }
    await()
        .atMost(Duration.ofMinutes(2))
        .until(
            () -> log(holder).contains("failpoint " + FailpointNames.SINK_FENCE_BEFORE + " hit"));
    int other = cluster.startTaskManager(null);
    String holderId = FenceHeldRuns.taskManagerId(cluster.taskManagerLog(holder));

    // when: the leader is killed while the fence is held
    LocalClusterProcesses.kill(deposedProcess);
    await()
        .atMost(Duration.ofMinutes(1))
        .until(() -> cluster.leader().filter(l -> l.epoch() > deposed.epoch()).isPresent());
    assertThat(log(holder))
        .as("the fence is held when the new leader leads")
        .doesNotContain(LEFT_THE_LEADER);

    // then: the new leader deploys the job on either task manager only once the first one left
    // the deposed leader, its fence ended; every id is committed once
    await()
        .atMost(Duration.ofMinutes(3))
        .pollInterval(Duration.ofMillis(100))
        .until(() -> occurrences(log(holder), DEPLOYED) + occurrences(log(other), DEPLOYED) > 1);
    assertThat(log(holder))
        .as("the fence ended before the job was deployed again")
        .contains(LEFT_THE_LEADER);
    try (ClusterClient client = cluster.leaderClient()) {
      await()
          .atMost(Duration.ofMinutes(3))
          .pollInterval(Duration.ofSeconds(1))
          .until(() -> client.job(jobId).isTerminal());
      assertThat(client.job(jobId).state()).as(client.job(jobId).message()).isEqualTo("FINISHED");
    }
    assertThat(Files.readString(cluster.leaderLog()))
        .containsPattern(
            "The attempts of the leaders before epoch \\d+ ended on every task manager: \\{.*"
                + holderId
                + "=GONE");
    Map<String, Long> expected = FenceHeldRuns.eachIdOnce(RECORDS);
    await()
        .atMost(Duration.ofSeconds(60))
        .pollInterval(Duration.ofMillis(500))
        .untilAsserted(
            () ->
                assertThat(FenceHeldRuns.committedCounts(kafka.bootstrapServers(), output))
                    .isEqualTo(expected));
  }

  private static int occurrences(String text, String part) {
    return text.split(Pattern.quote(part), -1).length - 1;
  }

  private String log(int taskManager) throws IOException {
    return Files.readString(cluster.taskManagerLog(taskManager));
  }
}
