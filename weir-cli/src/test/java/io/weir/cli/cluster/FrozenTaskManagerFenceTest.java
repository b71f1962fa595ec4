package io.weir.cli.cluster;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.weir.cluster.ClusterClient;
import io.weir.cluster.rpc.ClientMessages.JobStatus;
import io.weir.kafka.testing.KafkaBrokerExtension;
import io.weir.kafka.testing.KafkaTestClients;
import io.weir.runtime.failpoint.FailpointNames;
import io.weir.runtime.startup.BesideStartWork;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.LocalTime;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;

/**
 * A task manager frozen (SIGSTOP) while its sink's fence is about to start: the job manager counts
 * it as gone once its heartbeats stop, without its word, and must not deploy the next attempt until
 * the fence it may still send is void: its lease ended and the fence's bound passed. Woken, it
 * finds its lease expired and sends no fence.
 */
@Timeout(value = 10, unit = TimeUnit.MINUTES)
class FrozenTaskManagerFenceTest {
  private static final long RECORDS = 3000;
  private static final long RECORDS_PER_SECOND = 100;
  private static final Pattern LOG_TIME = Pattern.compile("^(\\d\\d:\\d\\d:\\d\\d\\.\\d{3}) ");
  private static final Pattern SILENCE =
      Pattern.compile("no heartbeat for (\\d+) ms \\(timeout (\\d+) ms\\)");

  @RegisterExtension
  static final KafkaBrokerExtension kafka =
      new KafkaBrokerExtension(config -> config.withStartTimeout(Duration.ofMinutes(3)));

  @TempDir Path directory;
  private LocalClusterProcesses cluster;

  @AfterEach
  void stop() throws Exception {
    if (cluster != null) {
      for (int number = 1; number <= LocalClusterProcesses.TASK_MANAGERS; number++) {
        LocalClusterProcesses.signal(cluster.taskManager(number), "-CONT");
      }
      cluster.close();
    }
  }

  @Test
  void when_aTaskManagerIsFrozenBeforeItsFence_then_theNextAttemptWaitsOutItsLeaseAndTheBound()
      throws Exception {
    // given: both task managers hold their first fence for a while; the job's first attempt runs
    // on one of them
    String output = "frozen-fence-out";
    KafkaTestClients.createTopic(kafka.bootstrapServers(), output, 1);
    cluster = new LocalClusterProcesses(directory, "");
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
                  RECORDS,
                  RECORDS_PER_SECOND,
                  1));
      String attempt0 = job.jobId() + "#0";
      await()
          .atMost(Duration.ofMinutes(2))
          .until(() -> log(1).contains(attempt0) || log(2).contains(attempt0));
      int frozen = log(1).contains(attempt0) ? 1 : 2;
      int other = 3 - frozen;
      await()
          .atMost(Duration.ofMinutes(2))
          .until(() -> log(frozen).contains("failpoint " + FailpointNames.SINK_FENCE_BEFORE));

      // when: frozen while its fence is held, and woken once the next attempt runs elsewhere
      LocalClusterProcesses.signal(cluster.taskManager(frozen), "-STOP");
      String attempt1Deployed = "Deployed 1 subtasks of " + job.jobId() + "#1";
      await()
          .atMost(Duration.ofMinutes(3))
          .pollInterval(Duration.ofMillis(200))
          .until(() -> log(other).contains(attempt1Deployed));
      LocalClusterProcesses.signal(cluster.taskManager(frozen), "-CONT");

      // then: the next attempt deployed no earlier than the bound after the frozen one's lease
      // ended (its last heartbeat plus the heartbeat timeout); the job manager declares it lost
      // at its next check, which may come a little after the lease ended
      String jobManagerLog = Files.readString(cluster.jobManagerLog());
      String lostLine =
          lineWith(
              jobManagerLog,
              "Task manager "
                  + FenceHeldRuns.taskManagerId(cluster.taskManagerLog(frozen))
                  + " is lost");
      Matcher silence = SILENCE.matcher(lostLine);
      assertThat(silence.find()).as(lostLine).isTrue();
      LocalTime leaseEnded =
          timeOf(lostLine)
              .minus(Duration.ofMillis(Long.parseLong(silence.group(1))))
              .plus(Duration.ofMillis(Long.parseLong(silence.group(2))));
      LocalTime deployed = timeOf(lineWith(log(other), attempt1Deployed));
      Duration leaseEndToDeployed = Duration.between(leaseEnded, deployed);
      System.out.println(
          "frozen task manager: next attempt deployed "
              + leaseEndToDeployed.toMillis()
              + " ms after its lease ended");
      assertThat(leaseEndToDeployed).isGreaterThanOrEqualTo(BesideStartWork.WORK_BOUND);
      await()
          .atMost(Duration.ofMinutes(1))
          .until(() -> log(frozen).contains("does not fence its other transactional ids"));
      await()
          .atMost(Duration.ofMinutes(4))
          .pollInterval(Duration.ofSeconds(1))
          .until(() -> client.job(job.jobId()).isTerminal());
      JobStatus ended = client.job(job.jobId());
      assertThat(ended.state()).as(ended.message()).isEqualTo("FINISHED");
    }
    Map<String, Long> expected = FenceHeldRuns.eachIdOnce(RECORDS);
    await()
        .atMost(Duration.ofSeconds(60))
        .pollInterval(Duration.ofMillis(500))
        .untilAsserted(
            () ->
                assertThat(FenceHeldRuns.committedCounts(kafka.bootstrapServers(), output))
                    .isEqualTo(expected));
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

  private String log(int taskManager) throws IOException {
    return Files.readString(cluster.taskManagerLog(taskManager));
  }
}
