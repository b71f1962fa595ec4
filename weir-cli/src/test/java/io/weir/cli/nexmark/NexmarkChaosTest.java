package io.weir.cli.nexmark;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.weir.kafka.testing.KafkaBrokerExtension;
import io.weir.kafka.testing.KafkaTestClients;
import io.weir.lab.process.JobProcess;
import io.weir.nexmark.generator.EventGenerator;
import io.weir.nexmark.generator.GeneratorConfig;
import io.weir.nexmark.job.NexmarkJob;
import io.weir.nexmark.kafka.EventTopicWriter;
import io.weir.nexmark.kafka.EventTopics;
import io.weir.nexmark.oracle.CheckResult;
import io.weir.nexmark.oracle.QueryCheck;
import io.weir.nexmark.queries.NexmarkQuery;
import io.weir.nexmark.queries.Query5;
import io.weir.nexmark.queries.Query6;
import io.weir.nexmark.queries.Query7;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.stream.Stream;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;

/**
 * Queries as their own processes, killed with SIGKILL at random moments after a checkpoint and
 * restarted from their checkpoint directory until they finish: the committed output is still
 * exactly the SQL's. q7 keeps a window per key; q5 chains two windowed stages (sliding counts per
 * auction, then the top counts of each window), so a restore must agree across both.
 */
class NexmarkChaosTest {
  @RegisterExtension static final KafkaBrokerExtension kafka = new KafkaBrokerExtension();

  private static final long EVENTS = 150_000;
  private static final long RATE = 1_000;
  private static final int KILLS = 3;
  // 150 s of event time
  private static final GeneratorConfig CONFIG =
      GeneratorConfig.defaults().withEventsPerSecond(RATE);

  @TempDir Path directory;

  @BeforeAll
  static void writeEvents() {
    new EventTopics(kafka.bootstrapServers()).createIfMissing("events", 3);
    new EventTopicWriter(kafka.bootstrapServers(), "events")
        .write(new EventGenerator(CONFIG), EVENTS, written -> {});
  }

  @Test
  void when_q7IsKilledAtRandomAndRestartedFromItsCheckpoint_then_itsOutputEqualsTheSql()
      throws Exception {
    // fifteen ten-second windows
    assertOutputEqualsTheSqlAfterKills(new Query7(), 15);
  }

  @Test
  void when_q5IsKilledAtRandomAndRestartedFromItsCheckpoint_then_itsOutputEqualsTheSql()
      throws Exception {
    // a sliding window every two seconds, each with at least one hot item
    assertOutputEqualsTheSqlAfterKills(new Query5(), 75);
  }

  @Test
  void when_q6OnRocksDbIsKilledAtRandomAndRestartedFromItsCheckpoint_then_itsOutputEqualsTheSql()
      throws Exception {
    // the winning bids, then each seller's winners waiting by expiry, restored from RocksDB's files
    assertOutputEqualsTheSqlAfterKills(new Query6(), "rocksdb", 1_000);
  }

  private void assertOutputEqualsTheSqlAfterKills(NexmarkQuery<?> query, int leastRows)
      throws Exception {
    assertOutputEqualsTheSqlAfterKills(query, "heap", leastRows);
  }

  private void assertOutputEqualsTheSqlAfterKills(
      NexmarkQuery<?> query, String stateBackend, int leastRows) throws Exception {
    // given
    String results = query.name() + "-results";
    KafkaTestClients.createTopic(kafka.bootstrapServers(), results, 2);
    Random random = new Random(7);
    List<Long> killedAfter = new ArrayList<>();

    // when: killed at a random moment after an attempt completed a checkpoint (its sinks then
    // commit) or committed new results, up to three times; an attempt that finishes before its
    // kill ends the run. Waiting for new results alone let a restored attempt on a fast run
    // commit the rest of the input at once and finish before its kill.
    int exit = -1;
    while (exit != 0) {
      int committedBefore = committedRows(results);
      long checkpointBefore = latestCheckpoint(query);
      try (JobProcess job = start(query, stateBackend, "attempt-" + killedAfter.size())) {
        if (killedAfter.size() == KILLS) {
          exit = job.waitFor(Duration.ofSeconds(120).toMillis());
          assertThat(exit).as("the last attempt's exit, see %s", job.log()).isZero();
          break;
        }
        await()
            .atMost(Duration.ofSeconds(90))
            .pollInterval(Duration.ofMillis(50))
            .until(
                () ->
                    !job.isAlive()
                        || latestCheckpoint(query) > checkpointBefore
                        || committedRows(results) > committedBefore);
        Duration moment = Duration.ofMillis(random.nextInt(300));
        await().pollDelay(moment).atMost(moment.plusSeconds(1)).until(() -> true);
        if (job.isAlive()) {
          job.kill();
          job.waitFor(10_000);
          killedAfter.add(latestCheckpoint(query));
        } else {
          exit = job.waitFor(0);
          assertThat(exit).as("an attempt that ended by itself, see %s", job.log()).isZero();
        }
      }
    }

    // then
    List<String> committed =
        KafkaTestClients.readAll(kafka.bootstrapServers(), results, "read_committed");
    CheckResult result = QueryCheck.compare(query, CONFIG, EVENTS, committed);
    assertThat(result.line())
        .isEqualTo(query.name() + ": rows=" + result.rows() + " matches-sql=true");
    assertThat(result.rows()).isGreaterThanOrEqualTo(leastRows);
    assertThat(killedAfter).as("attempts killed while committing results").hasSizeGreaterThan(1);
    System.out.printf(
        "chaos: %s killed after checkpoints %s; the output is the SQL's%n",
        query.name(), killedAfter);
  }

  private static int committedRows(String topic) {
    return KafkaTestClients.readAll(kafka.bootstrapServers(), topic, "read_committed").size();
  }

  private JobProcess start(NexmarkQuery<?> query, String stateBackend, String attempt)
      throws IOException {
    return JobProcess.start(
        List.of(
            "--checkpoint-dir",
            directory.resolve("checkpoints").toString(),
            "--state-backend",
            stateBackend,
            NexmarkJob.class.getName(),
            "--query",
            query.name(),
            "--bootstrap-servers",
            kafka.bootstrapServers(),
            "--events-topic",
            "events",
            "--results-topic",
            query.name() + "-results",
            "--rate",
            String.valueOf(RATE),
            "--checkpoint-interval-ms",
            "300"),
        null,
        directory.resolve(attempt + ".log"));
  }

  /** The id of the newest completed checkpoint, 0 for none. */
  private long latestCheckpoint(NexmarkQuery<?> query) throws IOException {
    Path jobDirectory = directory.resolve("checkpoints").resolve("nexmark-" + query.name());
    if (!Files.isDirectory(jobDirectory)) {
      return 0;
    }
    try (Stream<Path> checkpoints = Files.list(jobDirectory)) {
      return checkpoints
          .filter(path -> Files.exists(path.resolve("_metadata")))
          .map(path -> path.getFileName().toString())
          .filter(name -> name.startsWith("chk-"))
          .mapToLong(name -> Long.parseLong(name.substring("chk-".length())))
          .max()
          .orElse(0);
    }
  }
}
