package io.weir.cli.lab;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowable;
import static org.awaitility.Awaitility.await;

import io.weir.api.checkpoint.CheckpointDeclinedException;
import io.weir.kafka.sink.KafkaSink;
import io.weir.kafka.testing.KafkaBrokerExtension;
import io.weir.kafka.testing.KafkaTestClients;
import io.weir.lab.OutputVerifier;
import io.weir.lab.Topics;
import io.weir.lab.process.JobProcess;
import io.weir.runtime.failpoint.FailpointNames;
import io.weir.testing.OperatorHarnessBuilder;
import io.weir.testing.OperatorHarnesses;
import io.weir.testing.OperatorTestHarness;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AdminClientConfig;
import org.apache.kafka.clients.admin.TransactionListing;
import org.apache.kafka.clients.admin.TransactionState;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.header.Header;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;

/**
 * The Kafka connectors when something goes wrong, on one real broker: the seed job's dead-letter
 * topic (a record that fails the job three times goes there once, with its origin and cause, and
 * every other record once to the output, also when the job process dies between writing the dead
 * letter and committing it), the exactly-once sink running out of transactional ids, and a job
 * restored while the broker is down.
 */
class KafkaConnectorFailuresTest {
  @RegisterExtension
  static final KafkaBrokerExtension kafka =
      new KafkaBrokerExtension(config -> config.withStartTimeout(Duration.ofMinutes(3)));

  private static final Pattern DASHBOARD = Pattern.compile("dashboard: (http://\\S+/)");

  @TempDir Path directory;

  @Test
  void when_haltedBetweenDeadLetterAndCommit_then_theRecordIsDeadLetteredOnceAndTheRestOnce()
      throws Exception {
    // given: an empty value, which the seed job's key selector rejects, at offset 0 of partition
    // 0, then good records, and a dead-letter topic
    SeedJobScenario scenario = new SeedJobScenario(kafka.bootstrapServers(), directory);
    String deadLetterTopic = scenario.outputTopic() + "-dead-letters";
    Topics.create(kafka.bootstrapServers(), 1, deadLetterTopic);
    scenario.addJobOptions("--dead-letter-topic", deadLetterTopic);
    try (KafkaProducer<String, String> producer =
        new KafkaProducer<>(KafkaTestClients.producerConfig(kafka.bootstrapServers()))) {
      producer.send(new ProducerRecord<>(scenario.inputTopic(), 0, "poison", "")).get();
    }
    scenario.feed(0, 300, 2000).get();

    // when: the job fails on it three times, then halts right after writing the dead letter into
    // its open transaction, and is resumed
    try (JobProcess job =
        scenario.start(FailpointNames.SOURCE_DEAD_LETTER_AFTER + "=halt", "--fresh")) {
      assertThat(SeedJobScenario.awaitExit(job, Duration.ofSeconds(120))).isNotZero();
      assertThat(SeedJobScenario.log(job))
          .contains("failure 3 of 3 before it goes to dead-letter topic '" + deadLetterTopic)
          .contains("failpoint " + FailpointNames.SOURCE_DEAD_LETTER_AFTER + " hit");
    }
    assertThat(deadLetters(deadLetterTopic)).isEmpty();
    try (JobProcess job = scenario.start(null)) {
      // then: every good record once in the output, the poison record once in the dead-letters,
      // and no late duplicate of either
      await()
          .atMost(Duration.ofSeconds(90))
          .pollInterval(Duration.ofMillis(500))
          .until(() -> scenario.readCommitted().verify(0, 300).lost() == 0);
      await()
          .during(Duration.ofSeconds(3))
          .atMost(Duration.ofSeconds(30))
          .pollInterval(Duration.ofMillis(500))
          .until(() -> deadLetters(deadLetterTopic).size() == 1);
      assertThat(scenario.readCommitted().verify(0, 300).duplicated()).isZero();
      assertThat(job.isAlive()).isTrue();
      ConsumerRecord<byte[], byte[]> deadLetter = deadLetters(deadLetterTopic).get(0);
      assertThat(new String(deadLetter.key(), StandardCharsets.UTF_8)).isEqualTo("poison");
      assertThat(deadLetter.value()).isEmpty();
      Map<String, String> headers = headers(deadLetter);
      assertThat(headers)
          .containsEntry("weir.topic", scenario.inputTopic())
          .containsEntry("weir.partition", "0")
          .containsEntry("weir.offset", "0")
          .containsEntry("weir.operator", "Source: Example Source");
      assertThat(headers.get("weir.cause")).contains("Not a word,frequency,timestamp record");
      assertThat(SeedJobScenario.log(job))
          .contains("to dead-letter topic '" + deadLetterTopic + "': it failed the job 3 times");
      // and the job counts it where users look: its progress line, the REST job and metrics
      await()
          .atMost(Duration.ofSeconds(30))
          .pollInterval(Duration.ofMillis(500))
          .until(() -> SeedJobScenario.log(job).contains("dead-letters=1"));
      String api = dashboardOf(job);
      assertThat(get(api + "api/v1/jobs/local-1")).contains("\"deadLetterRecords\":1");
      assertThat(get(api + "metrics"))
          .containsPattern(
              "weir_dead_letter_records_total\\{[^}]*job_id=\"local-1\"[^}]*} 1(\\.0)?\\s");
    }
  }

  /** The address of the job process's dashboard, as its first line prints it. */
  private static String dashboardOf(JobProcess job) {
    Matcher matcher = DASHBOARD.matcher(SeedJobScenario.log(job));
    assertThat(matcher.find()).as(SeedJobScenario.log(job)).isTrue();
    return matcher.group(1);
  }

  private static String get(String url) throws Exception {
    return HttpClient.newHttpClient()
        .send(HttpRequest.newBuilder(URI.create(url)).build(), HttpResponse.BodyHandlers.ofString())
        .body();
  }

  @Test
  void when_everyTransactionalIdIsPending_then_theCheckpointIsDeclinedAndNoRecordIsLost()
      throws Exception {
    // given: a sink with a pool of two ids, one pending with checkpoint 1's transaction, the other
    // open
    String topic = "pool-exhaustion";
    KafkaTestClients.createTopic(kafka.bootstrapServers(), topic, 1);
    OperatorTestHarness<String, Void> harness = poolOfTwo(topic, "pool-exhaustion").open();
    harness.processElement("a");
    harness.snapshot();
    harness.processElement("b");

    // when: checkpoint 2 comes before checkpoint 1 was notified complete
    Throwable declined = catchThrowable(harness::snapshot);
    harness.processElement("c");
    harness.notifyCheckpointComplete(1);
    harness.snapshot();
    harness.notifyCheckpointComplete(3);
    // The sink commits in the background; closing waits for its commits.
    harness.close();

    // then: checkpoint 2 was declined, its records went on into the open transaction, and
    // checkpoint 3 committed them: every record once
    assertThat(declined)
        .isInstanceOf(CheckpointDeclinedException.class)
        .hasMessageContaining("all 2 transactional ids of pool-exhaustion-0-* are in use")
        .hasMessageContaining("checkpoint 2 declined");
    assertCommittedOnceAfterClose(topic, "a", "b", "c");
  }

  @Test
  void when_commitsKeepUp_then_aSubtaskAlternatesTwoIdsAndOnlyFencesTheRestOfItsPool()
      throws Exception {
    // given: a sink with the default pool of five ids
    String topic = "pool-alternation";
    KafkaTestClients.createTopic(kafka.bootstrapServers(), topic, 1);
    OperatorTestHarness<String, Void> harness =
        OperatorHarnesses.forSink(
                () ->
                    KafkaSink.<String>builder()
                        .bootstrapServers(kafka.bootstrapServers())
                        .topic(topic)
                        .transactionalIdPrefix("pool-alternation")
                        .build())
            .open();

    // when: four checkpoints, each committed before the next
    for (long checkpoint = 1; checkpoint <= 4; checkpoint++) {
      harness.processElement("record " + checkpoint);
      harness.snapshot();
      harness.notifyCheckpointComplete(checkpoint);
      harness.awaitCommitsInFlight();
    }
    harness.close();

    // then: every record once; transactions ran under the first two ids only, and the broker knows
    // the other three only as fenced (no transaction ever began under them)
    assertCommittedOnceAfterClose(topic, "record 1", "record 2", "record 3", "record 4");
    Map<String, TransactionState> states = transactionStates("pool-alternation-0-");
    assertThat(states)
        .containsOnlyKeys(
            "pool-alternation-0-0",
            "pool-alternation-0-1",
            "pool-alternation-0-2",
            "pool-alternation-0-3",
            "pool-alternation-0-4");
    assertThat(states.get("pool-alternation-0-0")).isNotEqualTo(TransactionState.EMPTY);
    assertThat(states.get("pool-alternation-0-1")).isNotEqualTo(TransactionState.EMPTY);
    assertThat(states.get("pool-alternation-0-2")).isEqualTo(TransactionState.EMPTY);
    assertThat(states.get("pool-alternation-0-3")).isEqualTo(TransactionState.EMPTY);
    assertThat(states.get("pool-alternation-0-4")).isEqualTo(TransactionState.EMPTY);
  }

  @Test
  void when_thePendingIdBelongsToAnAbortedCheckpoint_then_theTaskFailsInsteadOfDecliningForEver()
      throws Exception {
    // given: checkpoint 1 pending, then aborted: only a later completed checkpoint could commit it
    String topic = "pool-exhaustion-aborted";
    KafkaTestClients.createTopic(kafka.bootstrapServers(), topic, 1);
    OperatorTestHarness<String, Void> harness = poolOfTwo(topic, "pool-aborted").open();
    harness.processElement("a");
    harness.snapshot();
    harness.notifyCheckpointAborted(1);

    // when
    Throwable failure = catchThrowable(harness::snapshot);

    // then: a failure (the restore rereads the records), not a decline that would block every
    // later checkpoint
    assertThat(failure)
        .isNotInstanceOf(CheckpointDeclinedException.class)
        .hasMessageContaining("which was aborted; restarting from the latest completed checkpoint");
    harness.crash();
  }

  @Test
  void when_theBrokerIsDownWhenAJobIsRestored_then_itFailsWithinTheStartTimeoutAndLosesNothing()
      throws Exception {
    // given: a job halted after checkpoint 2 completed, before its transaction was committed
    SeedJobScenario scenario = new SeedJobScenario(kafka.bootstrapServers(), directory);
    scenario.feed(0, 300, 2000).get();
    try (JobProcess job =
        scenario.start(FailpointNames.COORDINATOR_NOTIFY_BEFORE + "=halt@2", "--fresh")) {
      assertThat(SeedJobScenario.awaitExit(job, Duration.ofSeconds(90))).isNotZero();
    }

    // when: the broker is down when the job is resumed from that checkpoint
    kafka.broker().stop();
    try {
      try (JobProcess job = scenario.start(null, List.of(), List.of("--start-timeout", "3000"))) {
        // then: one line naming the address and the timeout, no restarts for ever
        assertThat(job.waitFor(60_000)).isEqualTo(1);
        assertThat(SeedJobScenario.log(job))
            .contains(
                "Cannot reach Kafka at "
                    + kafka.bootstrapServers()
                    + " within 3 s to settle the restored transactions of the sink to topic '"
                    + scenario.outputTopic())
            .contains("not restarted");
      }
    } finally {
      kafka.broker().restart();
    }

    // and: resumed once the broker is back, every record is committed once
    try (JobProcess job = scenario.start(null)) {
      await()
          .atMost(Duration.ofSeconds(90))
          .pollInterval(Duration.ofMillis(500))
          .until(() -> scenario.readCommitted().verify(0, 300).lost() == 0);
      assertThat(scenario.readCommitted().verify(0, 300).duplicated()).isZero();
    }
  }

  /**
   * The topic holds exactly {@code values}, in order, for a read_committed reader. A commit returns
   * once the broker decided it, before its markers are written: until then the reader stops short
   * of the last transaction, so it reads again until they are. Nothing is open any more, so no
   * record can follow.
   */
  private static void assertCommittedOnceAfterClose(String topic, String... values) {
    await()
        .atMost(Duration.ofSeconds(30))
        .untilAsserted(
            () ->
                assertThat(
                        KafkaTestClients.readAll(kafka.bootstrapServers(), topic, "read_committed"))
                    .containsExactly(values));
  }

  private static Map<String, TransactionState> transactionStates(String prefix) throws Exception {
    try (Admin admin =
        Admin.create(
            Map.of(AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG, kafka.bootstrapServers()))) {
      Map<String, TransactionState> states = new HashMap<>();
      for (TransactionListing listing : admin.listTransactions().all().get()) {
        if (listing.transactionalId().startsWith(prefix)) {
          states.put(listing.transactionalId(), listing.state());
        }
      }
      return states;
    }
  }

  private static OperatorHarnessBuilder<String, Void> poolOfTwo(String topic, String prefix) {
    return OperatorHarnesses.forSink(
        () ->
            KafkaSink.<String>builder()
                .bootstrapServers(kafka.bootstrapServers())
                .topic(topic)
                .transactionalIdPrefix(prefix)
                .transactionalIdPoolSize(2)
                .build());
  }

  private static List<ConsumerRecord<byte[], byte[]>> deadLetters(String topic) {
    List<ConsumerRecord<byte[], byte[]>> records = new ArrayList<>();
    new OutputVerifier(kafka.bootstrapServers(), topic).forEachRecord(true, records::add);
    return records;
  }

  private static Map<String, String> headers(ConsumerRecord<byte[], byte[]> record) {
    Map<String, String> headers = new HashMap<>();
    for (Header header : record.headers()) {
      headers.put(header.key(), new String(header.value(), StandardCharsets.UTF_8));
    }
    return headers;
  }
}
