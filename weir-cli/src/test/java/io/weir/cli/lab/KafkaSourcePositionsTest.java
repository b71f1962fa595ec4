package io.weir.cli.lab;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.weir.examples.SeedRecords;
import io.weir.kafka.testing.KafkaBrokerExtension;
import io.weir.lab.OutputVerifier;
import io.weir.lab.process.JobProcess;
import java.nio.file.Path;
import java.time.Duration;
import java.util.HashMap;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AdminClientConfig;
import org.apache.kafka.clients.admin.OffsetSpec;
import org.apache.kafka.clients.admin.RecordsToDelete;
import org.apache.kafka.common.TopicPartition;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;

/**
 * Where the seed job's Kafka source starts and what it does when its position is gone: start
 * positions are in the first checkpoint, and an offset deleted by retention fails the job loudly
 * or, with {@code --on-out-of-range earliest}, is skipped, counted and reported.
 */
class KafkaSourcePositionsTest {
  private static final int PARTITIONS = 4;
  private static final long KEPT_PER_PARTITION = 100;

  // A broker may take long to serve while the machine is busy; the tests poll, so wait for it.
  @RegisterExtension
  static final KafkaBrokerExtension kafka =
      new KafkaBrokerExtension(config -> config.withStartTimeout(Duration.ofMinutes(3)));

  @TempDir Path directory;

  @Test
  void when_startedAtLatestAndHaltedBeforeTheSecondCheckpoint_then_theResumedJobLosesNothing()
      throws Exception {
    // given: the keyed seed job starting at latest on an empty topic
    SeedJobScenario scenario =
        new SeedJobScenario(kafka.bootstrapServers(), directory, "--starting-offsets", "latest");
    long records = 1000;

    // when: input flows from its first checkpoint on, the job manager halts before the second
    // checkpoint's metadata, and a new process resumes from the first checkpoint
    CompletableFuture<Void> input;
    try (JobProcess first = scenario.start("coordinator.metadata.before=halt@2")) {
      scenario.awaitFirstCheckpoint(first);
      input = scenario.feed(0, records, 2000);
      SeedJobScenario.awaitExit(first, Duration.ofSeconds(60));
      assertThat(SeedJobScenario.log(first)).contains("failpoint coordinator.metadata.before hit");
    }
    input.join();
    try (JobProcess second = scenario.start(null)) {
      // then: the first checkpoint held the positions latest had resolved to
      awaitExactlyOnce(scenario, records);
      assertThat(second.isAlive()).as("resumed job alive, see %s", second.log()).isTrue();
    }
  }

  @Test
  void when_retentionDeletedUnreadRecords_then_theJobFailsOrSkipsThemByPolicy() throws Exception {
    // given: the seed job has read and committed 1,000 records, then is killed
    SeedJobScenario scenario = new SeedJobScenario(kafka.bootstrapServers(), directory);
    long read = 1000;
    try (JobProcess first = scenario.start(null)) {
      scenario.feed(0, read, 0).join();
      awaitExactlyOnce(scenario, read);
    }
    Map<TopicPartition, Long> positions = endOffsets(scenario.inputTopic());
    // while it is down, more records arrive and retention deletes all but the last 100 of each
    // partition, among them records the job had not read
    scenario.feed(read, 3 * read, 0).join();
    long deleted = deleteAllButTheLast(scenario.inputTopic(), KEPT_PER_PARTITION, positions);
    assertThat(deleted).isPositive();

    // when: resumed with the default policy
    try (JobProcess failing = scenario.start(null)) {
      // then: it fails at once, naming the partition, the offset and the earliest offset
      assertThat(failing.waitFor(60_000)).isEqualTo(1);
      assertThat(SeedJobScenario.log(failing))
          .containsPattern(
              "Offset \\d+ of "
                  + scenario.inputTopic()
                  + "-\\d is out of range \\(records before the earliest available offset \\d+"
                  + " were deleted\\)")
          .contains("--on-out-of-range earliest")
          .contains("not restarted");
    }

    // when: resumed with the earliest policy
    scenario.addJobOptions("--on-out-of-range", "earliest");
    try (JobProcess resumed = scenario.start(null)) {
      // then: every retained record once, and the count of skipped ones in the log
      OutputVerifier.Reading retained =
          new OutputVerifier(kafka.bootstrapServers(), scenario.inputTopic()).read(true);
      OutputVerifier.Reading expected = withIds(retained, read);
      await()
          .atMost(Duration.ofSeconds(120))
          .pollInterval(Duration.ofMillis(300))
          .until(() -> scenario.readCommitted().verifyAgainst(expected).lost() == 0);
      await()
          .during(SeedJobScenario.CHECKPOINT_INTERVAL.multipliedBy(3))
          .atMost(Duration.ofSeconds(10))
          .until(() -> scenario.readCommitted().verifyAgainst(expected).duplicated() == 0);
      assertThat(scenario.readCommitted().verifyAgainst(expected).exactlyOnce()).isTrue();
      assertThat(skippedInLog(SeedJobScenario.log(resumed))).isEqualTo(deleted);
    }
  }

  private static void awaitExactlyOnce(SeedJobScenario scenario, long records) {
    await()
        .atMost(Duration.ofSeconds(120))
        .pollInterval(Duration.ofMillis(300))
        .until(() -> scenario.readCommitted().verify(0, records).lost() == 0);
    await()
        .during(SeedJobScenario.CHECKPOINT_INTERVAL.multipliedBy(3))
        .atMost(Duration.ofSeconds(10))
        .until(() -> scenario.readCommitted().verify(0, records).duplicated() == 0);
    OutputVerifier.Verdict verdict = scenario.readCommitted().verify(0, records);
    assertThat(verdict.exactlyOnce()).as(verdict.line()).isTrue();
  }

  /** The reading plus ids {@code 0} to {@code ids - 1}, once each. */
  private static OutputVerifier.Reading withIds(OutputVerifier.Reading reading, long ids) {
    Map<Long, Integer> counts = new HashMap<>(reading.counts());
    for (long id = 0; id < ids; id++) {
      counts.merge(SeedRecords.BASE_TIMESTAMP + id, 1, Integer::sum);
    }
    return new OutputVerifier.Reading(counts, reading.records() + ids);
  }

  private static long skippedInLog(String log) {
    var matcher = java.util.regex.Pattern.compile("Skipped (\\d+) records of").matcher(log);
    long skipped = 0;
    while (matcher.find()) {
      skipped += Long.parseLong(matcher.group(1));
    }
    return skipped;
  }

  private static Admin admin() {
    return Admin.create(
        Map.of(AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG, kafka.bootstrapServers()));
  }

  private static Map<TopicPartition, Long> endOffsets(String topic) throws Exception {
    Map<TopicPartition, OffsetSpec> query = new HashMap<>();
    for (int partition = 0; partition < PARTITIONS; partition++) {
      query.put(new TopicPartition(topic, partition), OffsetSpec.latest());
    }
    try (Admin admin = admin()) {
      Map<TopicPartition, Long> ends = new HashMap<>();
      admin
          .listOffsets(query)
          .all()
          .get(30, TimeUnit.SECONDS)
          .forEach((partition, info) -> ends.put(partition, info.offset()));
      return ends;
    }
  }

  /**
   * Deletes all but the last {@code kept} records of each partition; returns how many of the
   * deleted ones lay at or after {@code positions}, that is, had not been read.
   */
  private static long deleteAllButTheLast(
      String topic, long kept, Map<TopicPartition, Long> positions) throws Exception {
    Map<TopicPartition, RecordsToDelete> deletions = new HashMap<>();
    long unread = 0;
    for (Map.Entry<TopicPartition, Long> end : endOffsets(topic).entrySet()) {
      long before = Math.max(0, end.getValue() - kept);
      deletions.put(end.getKey(), RecordsToDelete.beforeOffset(before));
      unread += Math.max(0, before - positions.get(end.getKey()));
    }
    try (Admin admin = admin()) {
      admin.deleteRecords(deletions).all().get(30, TimeUnit.SECONDS);
    }
    return unread;
  }
}
