package io.weir.cli.lab;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.weir.kafka.testing.KafkaBrokerExtension;
import io.weir.lab.OutputVerifier;
import io.weir.lab.process.JobProcess;
import io.weir.runtime.checkpoint.storage.CheckpointLayout;
import io.weir.runtime.checkpoint.storage.CheckpointLoader;
import io.weir.runtime.exchange.InFlightRecords;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;

/**
 * The seed job with unaligned checkpoints and a deliberately slow map (and sink behind it) on a
 * real broker, fed faster than it can process, killed with SIGKILL once a completed checkpoint
 * holds records in flight, then restarted from that checkpoint: a {@code read_committed} reader of
 * the output sees every input record exactly once.
 */
class KafkaUnalignedKillTest {
  private static final long RECORDS = 3_000;
  private static final long RATE = 3_000;
  private static final String SLOW_MAP_MICROS = "1000";

  @RegisterExtension static final KafkaBrokerExtension kafka = new KafkaBrokerExtension();

  @TempDir Path directory;

  @Test
  void when_killedWithRecordsInFlightInTheCheckpoint_then_everyRecordIsCommittedOnce()
      throws Exception {
    // given: the seed job, slowed to about a third of the input's rate
    SeedJobScenario scenario = new SeedJobScenario(kafka.bootstrapServers(), directory);
    CompletableFuture<Void> feed;
    try (JobProcess first =
        scenario.start(
            null, List.of("--unaligned"), List.of("--record-delay-micros", SLOW_MAP_MICROS))) {
      scenario.awaitFirstCheckpoint(first);
      feed = scenario.feed(0, RECORDS, RATE);

      // when: killed once a checkpoint stored records in flight
      await()
          .atMost(Duration.ofSeconds(60))
          .pollInterval(Duration.ofMillis(50))
          .until(() -> !first.isAlive() || newestCheckpointHoldsRecordsInFlight());
      assertThat(first.isAlive()).as("job alive, see %s", first.log()).isTrue();
      first.kill();
      first.waitFor(10_000);
    }
    feed.join();
    try (JobProcess second = scenario.start(null, List.of("--unaligned"), List.of())) {
      // then
      await()
          .atMost(Duration.ofSeconds(90))
          .pollInterval(Duration.ofMillis(300))
          .until(() -> scenario.readCommitted().verify(0, RECORDS).lost() == 0);
      // A late duplicate would come with a later checkpoint: watch a few more.
      await()
          .during(SeedJobScenario.CHECKPOINT_INTERVAL.multipliedBy(3))
          .atMost(Duration.ofSeconds(10))
          .until(() -> scenario.readCommitted().verify(0, RECORDS).duplicated() == 0);
      OutputVerifier.Verdict verdict = scenario.readCommitted().verify(0, RECORDS);
      assertThat(second.isAlive()).as("restarted job alive, see %s", second.log()).isTrue();
      assertThat(verdict.exactlyOnce()).as(verdict.line()).isTrue();
      assertThat(verdict.out()).isEqualTo(RECORDS);
    }
  }

  /** Whether the newest complete checkpoint stored records in flight for the slow map. */
  private boolean newestCheckpointHoldsRecordsInFlight() throws Exception {
    Path job = directory.resolve("checkpoints").resolve("seed");
    List<Path> checkpoints = CheckpointLayout.checkpointDirectoriesNewestFirst(job);
    for (Path checkpoint : checkpoints) {
      try {
        return CheckpointLoader.load(checkpoint).operators().get("map").subtasks().values().stream()
            .flatMap(subtask -> subtask.listStates().keySet().stream())
            .anyMatch(InFlightRecords::isInFlightState);
      } catch (Exception e) {
        // still being written: look at the one before
      }
    }
    return false;
  }
}
