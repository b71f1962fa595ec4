package io.weir.cli.lab;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.weir.kafka.testing.KafkaBrokerExtension;
import io.weir.kafka.testing.KafkaTestClients;
import io.weir.lab.ContinuousFeed;
import io.weir.lab.OutputVerifier;
import io.weir.lab.process.JobProcess;
import java.nio.file.Path;
import java.time.Duration;
import java.util.HashSet;
import java.util.Map;
import java.util.Properties;
import java.util.Set;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.common.PartitionInfo;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;

/**
 * A job killed with {@code kill -9} while its transaction is open must not hold {@code
 * read_committed} readers back for the broker's transaction timeout (15 minutes here): the next
 * start, fresh or restored, aborts what the killed process left open.
 */
class KafkaTransactionRecoveryTest {

  @RegisterExtension static final KafkaBrokerExtension kafka = new KafkaBrokerExtension();

  @TempDir Path directory;

  private long fed;

  @Test
  void when_killedAndStartedFresh_then_readCommittedReadersAreReleasedWithinSeconds()
      throws Exception {
    // given: a job halted while records are in a transaction no checkpoint will commit
    SeedJobScenario scenario = new SeedJobScenario(kafka.bootstrapServers(), directory);
    Map<TopicPartition, Long> endAtKill = killWithOpenTransaction(scenario);

    // when
    try (JobProcess fresh = scenario.start(null, "--fresh")) {
      long started = System.nanoTime();

      // then: the last stable offsets pass what the killed process wrote
      awaitStableBeyond(scenario, endAtKill);
      System.out.printf(
          "fresh start: read_committed released %d ms after the start%n",
          (System.nanoTime() - started) / 1_000_000);
    }
  }

  @Test
  void when_killedAndRestored_then_transactionsOpenedAfterTheCheckpointAreAbortedAndOutputIsExact()
      throws Exception {
    // given
    SeedJobScenario scenario = new SeedJobScenario(kafka.bootstrapServers(), directory);
    Map<TopicPartition, Long> endAtKill = killWithOpenTransaction(scenario);

    // when: restored from the latest checkpoint
    try (JobProcess restored = scenario.start(null)) {
      // then
      awaitStableBeyond(scenario, endAtKill);
      await()
          .atMost(Duration.ofSeconds(60))
          .pollInterval(Duration.ofMillis(300))
          .until(() -> scenario.readCommitted().verify(0, fed).lost() == 0);
      OutputVerifier.Verdict verdict = scenario.readCommitted().verify(0, fed);
      assertThat(verdict.exactlyOnce()).as(verdict.line()).isTrue();
      assertThat(restored.isAlive()).isTrue();
    }
  }

  @Test
  void when_killedAndStartedWithoutItsCheckpoints_then_theStartRefusesUnlessDataLossIsAccepted()
      throws Exception {
    // given: a killed job whose open transactions no checkpoint at hand records
    SeedJobScenario scenario = new SeedJobScenario(kafka.bootstrapServers(), directory);
    Map<TopicPartition, Long> endAtKill = killWithOpenTransaction(scenario);
    scenario.useCheckpointDirectory(directory.resolve("other-checkpoints"));

    // when
    try (JobProcess refused = scenario.start(null, "--from-group-offsets")) {
      // then: one line names the sink and its open transactions, nothing is aborted
      assertThat(SeedJobScenario.awaitExit(refused, Duration.ofSeconds(60))).isNotZero();
      assertThat(SeedJobScenario.log(refused))
          .contains("has transactions open from an earlier run")
          .contains(scenario.transactionalIdPrefix() + "-0-")
          .contains("--accept-data-loss");
    }
    assertThat(KafkaTestClients.lastStableOffsets(kafka.bootstrapServers(), scenario.outputTopic()))
        .as("the refused start aborted nothing")
        .isNotEqualTo(endAtKill);

    // when: the user accepts it
    try (JobProcess accepted = scenario.start(null, "--from-group-offsets", "--accept-data-loss")) {
      // then
      awaitStableBeyond(scenario, endAtKill);
      assertThat(accepted.isAlive()).isTrue();
    }
  }

  /**
   * Runs the job while input arrives and halts it after a checkpoint's snapshots, before its
   * metadata (its pre-committed transactions are in no completed checkpoint); returns the output
   * topic's end offsets then.
   */
  private Map<TopicPartition, Long> killWithOpenTransaction(SeedJobScenario scenario)
      throws Exception {
    // Before the metadata of the tenth checkpoint: every sink pre-committed the records of a
    // second or more into a transaction that no completed checkpoint holds, whatever the timing
    // of the first checkpoints (the first record at a sink makes one due at once).
    try (JobProcess job = scenario.start("coordinator.metadata.before=halt@10")) {
      scenario.awaitFirstCheckpoint(job);
      try (ContinuousFeed feed = scenario.feedContinuously(300)) {
        SeedJobScenario.awaitExit(job, Duration.ofSeconds(60));
        fed = feed.stop();
      }
    }
    Map<TopicPartition, Long> endAtKill = endOffsets(scenario.outputTopic());
    Map<TopicPartition, Long> stable =
        KafkaTestClients.lastStableOffsets(kafka.bootstrapServers(), scenario.outputTopic());
    assertThat(stable)
        .as("an open transaction holds the last stable offset")
        .isNotEqualTo(endAtKill);
    return endAtKill;
  }

  /**
   * A minute is far inside the broker's 15-minute transaction timeout, so a release within it is
   * the start's doing; it leaves room for a job JVM starting on a loaded machine.
   */
  private static void awaitStableBeyond(SeedJobScenario scenario, Map<TopicPartition, Long> end) {
    await()
        .atMost(Duration.ofSeconds(60))
        .pollInterval(Duration.ofMillis(200))
        .until(
            () -> {
              Map<TopicPartition, Long> stable =
                  KafkaTestClients.lastStableOffsets(
                      kafka.bootstrapServers(), scenario.outputTopic());
              return end.entrySet().stream()
                  .allMatch(e -> stable.getOrDefault(e.getKey(), 0L) >= e.getValue());
            });
  }

  private static Map<TopicPartition, Long> endOffsets(String topic) {
    Properties config = new Properties();
    config.put(ConsumerConfig.BOOTSTRAP_SERVERS_CONFIG, kafka.bootstrapServers());
    config.put(ConsumerConfig.ISOLATION_LEVEL_CONFIG, "read_uncommitted");
    config.put(ConsumerConfig.KEY_DESERIALIZER_CLASS_CONFIG, ByteArrayDeserializer.class);
    config.put(ConsumerConfig.VALUE_DESERIALIZER_CLASS_CONFIG, ByteArrayDeserializer.class);
    try (KafkaConsumer<byte[], byte[]> consumer = new KafkaConsumer<>(config)) {
      Set<TopicPartition> partitions = new HashSet<>();
      for (PartitionInfo info : consumer.partitionsFor(topic)) {
        partitions.add(new TopicPartition(topic, info.partition()));
      }
      return consumer.endOffsets(partitions);
    }
  }
}
