package io.weir.cli.lab;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.weir.kafka.monitor.TopicTransactions;
import io.weir.kafka.testing.KafkaBrokerExtension;
import io.weir.lab.OutputVerifier;
import io.weir.lab.Topics;
import io.weir.lab.process.JobProcess;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AdminClientConfig;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;

/**
 * What the seed job's Kafka source does with partitions and topics that changed while it ran or was
 * down: partitions added after the restored checkpoint are read from their first record.
 */
class KafkaPartitionDiscoveryTest {
  // Longer than any test: the first job never looks for new partitions, so it dies before it
  // discovers the added ones, whenever its start and checkpoints happen to fall.
  private static final List<String> NO_DISCOVERY =
      List.of("--partition-discovery-interval", Long.toString(Duration.ofHours(1).toMillis()));
  private static final List<String> BOUNDED = List.of("--bounded");

  @RegisterExtension
  static final KafkaBrokerExtension kafka =
      new KafkaBrokerExtension(config -> config.withStartTimeout(Duration.ofMinutes(3)));

  @TempDir Path directory;

  @Test
  void when_partitionsAddedAndKilledBeforeDiscovery_then_theResumedLatestStartLosesNothing()
      throws Exception {
    // given: the seed job started at latest on two partitions, 6,000 records read and committed
    SeedJobScenario scenario =
        new SeedJobScenario(kafka.bootstrapServers(), directory, 2, "--starting-offsets", "latest");
    long before = 6000;
    long after = 3000;
    try (JobProcess first = scenario.start(null, List.of(), NO_DISCOVERY)) {
      scenario.awaitFirstCheckpoint(first);
      scenario.feed(0, before, 0).join();
      awaitCommitted(scenario, before);

      // when: the topic grows to four partitions, 3,000 more records arrive on all four, and the
      // job is killed with SIGKILL before it discovered the new partitions
      Topics.grow(kafka.bootstrapServers(), scenario.inputTopic(), 4);
      scenario.feed(before, before + after, 0).join();
      first.kill();
    }
    // and: resumed from its last completed checkpoint, bounded to the records there are now
    try (JobProcess resumed = scenario.start(null, List.of(), BOUNDED)) {
      assertThat(resumed.waitFor(180_000)).as("exit, see %s", resumed.log()).isEqualTo(0);
    }

    // then: as soon as the process exited, no transaction on the output waits for its markers,
    // and a read_committed reader reads every record produced after the job's start once
    assertThat(TopicTransactions.allDecided(kafka.bootstrapServers(), scenario.outputTopic()))
        .as("every transaction on the output decided at the exit")
        .isTrue();
    OutputVerifier.Verdict verdict = scenario.readCommitted().verify(0, before + after);
    assertThat(verdict.lost()).as(verdict.line()).isZero();
    assertThat(verdict.exactlyOnce()).as(verdict.line()).isTrue();
  }

  @Test
  void when_topicRecreatedWhileDown_then_theRestoreFailsNamingItOrReadsTheNewTopicByPolicy()
      throws Exception {
    // given: the seed job read and committed 1,000 records, then was killed
    SeedJobScenario scenario = new SeedJobScenario(kafka.bootstrapServers(), directory);
    long read = 1000;
    long written = 500;
    try (JobProcess first = scenario.start(null)) {
      scenario.feed(0, read, 0).join();
      awaitCommitted(scenario, read);
    }
    // and: while it was down, its input topic was deleted and created again, with new records
    String oldId = topicId(scenario.inputTopic());
    recreate(scenario.inputTopic());
    String newId = topicId(scenario.inputTopic());
    scenario.feed(read, read + written, 0).join();

    // when: resumed
    try (JobProcess failing = scenario.start(null)) {
      // then: it fails at once, in one line naming the topic, both ids and the way out
      assertThat(failing.waitFor(120_000)).as("exit, see %s", failing.log()).isEqualTo(1);
      assertThat(SeedJobScenario.log(failing))
          .containsPattern(
              "Topic '"
                  + scenario.inputTopic()
                  + "' was deleted and created again since checkpoint \\d+ \\(topic id "
                  + oldId
                  + " then, "
                  + newId
                  + " now\\)")
          .contains("(--on-recreated-topic earliest)");
    }

    // when: resumed with the re-created topic policy earliest, bounded to the records there are
    try (JobProcess resumed =
        scenario.start(null, List.of(), List.of("--on-recreated-topic", "earliest", "--bounded"))) {
      assertThat(resumed.waitFor(180_000)).as("exit, see %s", resumed.log()).isEqualTo(0);
    }

    // then: the old topic's records and every record of the new topic once
    OutputVerifier.Verdict verdict = scenario.readCommitted().verify(0, read + written);
    assertThat(verdict.exactlyOnce()).as(verdict.line()).isTrue();
  }

  private static void awaitCommitted(SeedJobScenario scenario, long records) {
    await()
        .atMost(Duration.ofSeconds(120))
        .pollInterval(Duration.ofMillis(300))
        .until(() -> scenario.readCommitted().verify(0, records).lost() == 0);
  }

  private static Admin admin() {
    return Admin.create(
        Map.of(AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG, kafka.bootstrapServers()));
  }

  private static String topicId(String topic) throws Exception {
    try (Admin admin = admin()) {
      return admin
          .describeTopics(List.of(topic))
          .allTopicNames()
          .get(30, TimeUnit.SECONDS)
          .get(topic)
          .topicId()
          .toString();
    }
  }

  /**
   * Deletes {@code topic} and creates it again, with four partitions, once the deletion is done.
   */
  private static void recreate(String topic) throws Exception {
    try (Admin admin = admin()) {
      admin.deleteTopics(List.of(topic)).all().get(30, TimeUnit.SECONDS);
    }
    await()
        .atMost(Duration.ofSeconds(60))
        .pollInterval(Duration.ofMillis(200))
        .ignoreExceptions()
        .until(
            () -> {
              Topics.create(kafka.bootstrapServers(), 4, topic);
              return true;
            });
  }
}
