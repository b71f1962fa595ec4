package io.weir.cli.cluster;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.weir.cli.WeirCli;
import io.weir.cluster.ClusterClient;
import io.weir.cluster.ha.LeaderInfo;
import io.weir.cluster.rpc.ClientMessages.JobStatus;
import io.weir.devservers.process.FreePorts;
import io.weir.kafka.testing.KafkaBrokerExtension;
import io.weir.kafka.testing.KafkaTestClients;
import io.weir.runtime.failpoint.FailpointNames;
import io.weir.runtime.startup.BesideStartWork;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.LocalTime;
import java.util.ArrayDeque;
import java.util.Deque;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.function.Predicate;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;

/**
 * A sink's fence on a cluster held while the job's next attempt could begin: after the attempt
 * failed, while the leader that deployed it is killed, and while its task manager is frozen. The
 * next attempt must not begin before the fence ended (or could no longer be sent), or the fence
 * aborts a transaction the attempt began under one of the fenced ids.
 *
 * <p>Each case starts the cluster processes it breaks. The cases share one broker, each with a
 * topic and transactional ids of its own, and run one after another: each measures when a fence
 * ended against when the next attempt began.
 */
@Timeout(value = 10, unit = TimeUnit.MINUTES)
class ClusterFenceTest {
  private static final long RECORDS_PER_SECOND = 100;
  private static final String DEPLOYED = "Deployed 1 subtasks of ";
  private static final String LEFT_THE_LEADER = "lost the leader at";
  private static final Pattern LOG_TIME = Pattern.compile("^(\\d\\d:\\d\\d:\\d\\d\\.\\d{3}) ");
  private static final Pattern SILENCE =
      Pattern.compile("no heartbeat for (\\d+) ms \\(timeout (\\d+) ms\\)");

  @RegisterExtension
  static final KafkaBrokerExtension kafka =
      new KafkaBrokerExtension(config -> config.withStartTimeout(Duration.ofMinutes(3)));

  @TempDir Path directory;

  /** What the case started, stopped last first once it ended, however it ended. */
  private final Deque<AutoCloseable> started = new ArrayDeque<>();

  @AfterEach
  void stopWhatTheCaseStarted() throws Exception {
    while (!started.isEmpty()) {
      started.pop().close();
    }
  }

  /**
   * Placement is forced through the slot assignment, which gives a job of parallelism 1 the slot of
   * the live task manager whose id sorts first: attempt 0 runs on the only task manager, and during
   * the restart delay a task manager whose id sorts before it registers, so attempt 1 runs there.
   */
  @Test
  void when_theFenceOfAFailedAttemptIsHeldOnAnotherTaskManager_then_theNextAttemptWaitsForIt()
      throws Exception {
    // given: the fence of attempt 0 held for longer than the restart delay on the only task
    // manager, whose id sorts late; attempt 0 fails at its first snapshot
    long records = 2000;
    String output = "cluster-late-fence-out";
    KafkaTestClients.createTopic(kafka.bootstrapServers(), output, 1);
    LocalClusterProcesses cluster = new LocalClusterProcesses(directory, "");
    started.push(cluster);
    cluster.startJobManager();
    int fenceHolder =
        startTaskManagerUntil(
            cluster,
            1,
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
                  records,
                  RECORDS_PER_SECOND,
                  40));
      String attempt0 = job.jobId() + "#0";
      String attempt1 = job.jobId() + "#1";
      await()
          .atMost(Duration.ofMinutes(2))
          .until(() -> log(cluster.taskManagerLog(fenceHolder)).contains(DEPLOYED + attempt0));

      // when: during the restart delay a task manager whose id sorts first registers, its first
      // commit held so that attempt 1's transactions take the fenced ids 2-4
      String holderId = FenceHeldRuns.taskManagerId(cluster.taskManagerLog(fenceHolder));
      int next =
          startTaskManagerUntil(
              cluster,
              fenceHolder + 1,
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
      assertThat(log(cluster.taskManagerLog(next)))
          .as("attempt 1 placed")
          .contains(DEPLOYED + attempt1);
      assertThat(log(cluster.taskManagerLog(fenceHolder)))
          .as("attempt 1 placed")
          .doesNotContain(attempt1);
      JobStatus ended = client.job(job.jobId());
      assertThat(ended.state()).as(ended.message()).isEqualTo("FINISHED");
      assertThat(log(cluster.jobManagerLog()))
          .contains("Attempt " + attempt0 + " ended on every task manager: {" + holderId + "=");
    }
    assertEachIdCommittedOnce(output, records);
  }

  /**
   * The new leader knows nothing of the attempt whose fence is held, and another task manager
   * registers with it at once, while the one holding the fence is still cancelling.
   */
  @Test
  void when_theLeaderIsKilledWhileAFenceIsHeld_then_theNewLeaderDeploysAfterTheFenceEnded()
      throws Exception {
    // given: two job managers and one task manager, which holds the fence of the job's first
    // attempt; then a second task manager
    long records = 3000;
    String output = "leader-change-fence-out";
    KafkaTestClients.createTopic(kafka.bootstrapServers(), output, 1);
    String zooKeeperUrl = startZooKeeper(directory.resolve("zookeeper"), "/leader-change-fence");
    HaClusterProcesses cluster =
        new HaClusterProcesses(
            directory,
            Path.of("target", "leader-change-fence-logs").toAbsolutePath(),
            zooKeeperUrl);
    started.push(cluster);
    cluster.startJobManagers();
    int holder = cluster.startTaskManager(FailpointNames.SINK_FENCE_BEFORE + "=pause(50000)@1");
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
                      records,
                      RECORDS_PER_SECOND,
                      1))
              .jobId();
    }
    await()
        .atMost(Duration.ofMinutes(2))
        .until(
            () ->
                log(cluster.taskManagerLog(holder))
                    .contains("failpoint " + FailpointNames.SINK_FENCE_BEFORE + " hit"));
    int other = cluster.startTaskManager(null);
    String holderId = FenceHeldRuns.taskManagerId(cluster.taskManagerLog(holder));

    // when: the leader is killed while the fence is held
    LocalClusterProcesses.kill(deposedProcess);
    await()
        .atMost(Duration.ofMinutes(1))
        .until(() -> cluster.leader().filter(l -> l.epoch() > deposed.epoch()).isPresent());
    assertThat(log(cluster.taskManagerLog(holder)))
        .as("the fence is held when the new leader leads")
        .doesNotContain(LEFT_THE_LEADER);

    // then: the new leader deploys the job on either task manager only once the first one left
    // the deposed leader, its fence ended; every id is committed once
    await()
        .atMost(Duration.ofMinutes(3))
        .pollInterval(Duration.ofMillis(100))
        .until(
            () ->
                occurrences(log(cluster.taskManagerLog(holder)), DEPLOYED)
                        + occurrences(log(cluster.taskManagerLog(other)), DEPLOYED)
                    > 1);
    assertThat(log(cluster.taskManagerLog(holder)))
        .as("the fence ended before the job was deployed again")
        .contains(LEFT_THE_LEADER);
    try (ClusterClient client = cluster.leaderClient()) {
      await()
          .atMost(Duration.ofMinutes(3))
          .pollInterval(Duration.ofSeconds(1))
          .until(() -> client.job(jobId).isTerminal());
      assertThat(client.job(jobId).state()).as(client.job(jobId).message()).isEqualTo("FINISHED");
    }
    assertThat(log(cluster.leaderLog()))
        .containsPattern(
            "The attempts of the leaders before epoch \\d+ ended on every task manager: \\{.*"
                + holderId
                + "=GONE");
    assertEachIdCommittedOnce(output, records);
  }

  /**
   * The job manager counts a frozen (SIGSTOP) task manager as gone once its heartbeats stop,
   * without its word, and must not deploy the next attempt until the fence it may still send is
   * void: its lease ended and the fence's bound passed. Woken, it finds its lease expired and sends
   * no fence.
   */
  @Test
  void when_aTaskManagerIsFrozenBeforeItsFence_then_theNextAttemptWaitsOutItsLeaseAndTheBound()
      throws Exception {
    // given: both task managers hold their first fence for a while; the job's first attempt runs
    // on one of them
    long records = 3000;
    String output = "frozen-fence-out";
    KafkaTestClients.createTopic(kafka.bootstrapServers(), output, 1);
    LocalClusterProcesses cluster = new LocalClusterProcesses(directory, "");
    started.push(
        () -> {
          for (int number = 1; number <= LocalClusterProcesses.TASK_MANAGERS; number++) {
            LocalClusterProcesses.signal(cluster.taskManager(number), "-CONT");
          }
          cluster.close();
        });
    for (int number = 1; number <= LocalClusterProcesses.TASK_MANAGERS; number++) {
      cluster.withFailpoints(number, FailpointNames.SINK_FENCE_BEFORE + "=pause(15000)@1");
    }
    cluster.start();
    try (ClusterClient client = cluster.client()) {
      JobStatus job =
          client.submit(
              FenceHeldRuns.submission(
                  kafka.bootstrapServers(),
                  output,
                  "frozen-fence",
                  records,
                  RECORDS_PER_SECOND,
                  1));
      String attempt0 = job.jobId() + "#0";
      await()
          .atMost(Duration.ofMinutes(2))
          .until(
              () ->
                  log(cluster.taskManagerLog(1)).contains(attempt0)
                      || log(cluster.taskManagerLog(2)).contains(attempt0));
      int frozen = log(cluster.taskManagerLog(1)).contains(attempt0) ? 1 : 2;
      Path frozenLog = cluster.taskManagerLog(frozen);
      Path otherLog = cluster.taskManagerLog(3 - frozen);
      await()
          .atMost(Duration.ofMinutes(2))
          .until(() -> log(frozenLog).contains("failpoint " + FailpointNames.SINK_FENCE_BEFORE));

      // when: frozen while its fence is held, and woken once the next attempt runs elsewhere
      LocalClusterProcesses.signal(cluster.taskManager(frozen), "-STOP");
      String attempt1Deployed = DEPLOYED + job.jobId() + "#1";
      await()
          .atMost(Duration.ofMinutes(3))
          .pollInterval(Duration.ofMillis(200))
          .until(() -> log(otherLog).contains(attempt1Deployed));
      LocalClusterProcesses.signal(cluster.taskManager(frozen), "-CONT");

      // then: the next attempt deployed no earlier than the bound after the frozen one's lease
      // ended (its last heartbeat plus the heartbeat timeout); the job manager declares it lost
      // at its next check, which may come a little after the lease ended
      String lostLine =
          lineWith(
              log(cluster.jobManagerLog()),
              "Task manager " + FenceHeldRuns.taskManagerId(frozenLog) + " is lost");
      Matcher silence = SILENCE.matcher(lostLine);
      assertThat(silence.find()).as(lostLine).isTrue();
      LocalTime leaseEnded =
          timeOf(lostLine)
              .minus(Duration.ofMillis(Long.parseLong(silence.group(1))))
              .plus(Duration.ofMillis(Long.parseLong(silence.group(2))));
      LocalTime deployed = timeOf(lineWith(log(otherLog), attempt1Deployed));
      Duration leaseEndToDeployed = Duration.between(leaseEnded, deployed);
      System.out.println(
          "frozen task manager: next attempt deployed "
              + leaseEndToDeployed.toMillis()
              + " ms after its lease ended");
      assertThat(leaseEndToDeployed).isGreaterThanOrEqualTo(BesideStartWork.WORK_BOUND);
      await()
          .atMost(Duration.ofMinutes(1))
          .until(() -> log(frozenLog).contains("does not fence its other transactional ids"));
      await()
          .atMost(Duration.ofMinutes(4))
          .pollInterval(Duration.ofSeconds(1))
          .until(() -> client.job(job.jobId()).isTerminal());
      JobStatus ended = client.job(job.jobId());
      assertThat(ended.state()).as(ended.message()).isEqualTo("FINISHED");
    }
    assertEachIdCommittedOnce(output, records);
  }

  /** Starts ZooKeeper in {@code zooKeeperDirectory}, stopped after the case; its URL. */
  private String startZooKeeper(Path zooKeeperDirectory, String root) throws IOException {
    int port = FreePorts.pick();
    assertThat(
            WeirCli.run(
                "zookeeper", "start", "--dir", zooKeeperDirectory.toString(), "--port", "" + port))
        .isZero();
    started.push(() -> WeirCli.run("zookeeper", "stop", "--dir", zooKeeperDirectory.toString()));
    return "zookeeper://127.0.0.1:" + port + root;
  }

  /**
   * Starts task managers numbered from {@code first} with {@code failpoints} until one's id passes
   * {@code wanted}, killing the others; its number.
   */
  private static int startTaskManagerUntil(
      LocalClusterProcesses cluster, int first, Predicate<String> wanted, String failpoints)
      throws Exception {
    // Each start passes with a chance of at least a third.
    for (int number = first; number < first + 16; number++) {
      cluster.withFailpoints(number, failpoints);
      cluster.startTaskManager();
      if (wanted.test(FenceHeldRuns.taskManagerId(cluster.taskManagerLog(number)))) {
        return number;
      }
      LocalClusterProcesses.kill(cluster.taskManager(number));
    }
    throw new AssertionError("No task manager with a fitting id in 16 starts");
  }

  private static void assertEachIdCommittedOnce(String output, long records) {
    Map<String, Long> expected = FenceHeldRuns.eachIdOnce(records);
    await()
        .atMost(Duration.ofSeconds(60))
        .pollInterval(Duration.ofMillis(500))
        .untilAsserted(
            () ->
                assertThat(FenceHeldRuns.committedCounts(kafka.bootstrapServers(), output))
                    .isEqualTo(expected));
  }

  private static String log(Path log) throws IOException {
    return Files.readString(log);
  }

  private static int occurrences(String text, String part) {
    return text.split(Pattern.quote(part), -1).length - 1;
  }

  private static String lineWith(String log, String part) {
    for (String line : log.split("\n")) {
      if (line.contains(part) && LOG_TIME.matcher(line).find()) {
        return line;
      }
    }
    throw new AssertionError("No timed line with '" + part + "'");
  }

  private static LocalTime timeOf(String line) {
    Matcher time = LOG_TIME.matcher(line);
    assertThat(time.find()).as(line).isTrue();
    return LocalTime.parse(time.group(1));
  }
}
