package io.weir.cli.lab;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.weir.kafka.testing.KafkaBrokerExtension;
import io.weir.kafka.transaction.LingeringTransactions;
import io.weir.lab.ContinuousFeed;
import io.weir.lab.OutputVerifier;
import io.weir.lab.process.JobProcess;
import java.nio.file.Path;
import java.time.Duration;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.regex.Pattern;
import org.apache.kafka.clients.admin.AdminClientConfig;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * The job-level sink recovery on the local path, against a real broker: the seed job halted after a
 * checkpoint completed but before any sink was notified (its transactions pending), input arriving
 * meanwhile, then resumed with another parallelism ({@code --bounded}); and a restore whose pending
 * transaction the broker already aborted.
 */
class KafkaRescaleRecoveryTest {
  private static final long RATE = 1500;
  // Short, so that the broker aborts the halted job's transactions within the test's wait; long
  // enough that on a loaded machine no transaction ages past 90 % of it before the halt (the job
  // then fails on purpose, and the halt this test needs never comes).
  private static final Duration TRANSACTION_TIMEOUT = Duration.ofSeconds(15);
  private static final int HALTING_CHECKPOINT = 8;

  @RegisterExtension
  static final KafkaBrokerExtension kafka =
      new KafkaBrokerExtension(
          config ->
              config
                  .withTransactionAbortCheckInterval(Duration.ofMillis(500))
                  .withStartTimeout(Duration.ofMinutes(3)));

  @TempDir Path directory;

  @ParameterizedTest(name = "-p {0} -> -p {1}")
  @CsvSource({"1, 2", "2, 4", "4, 1"})
  void when_haltedBeforeNotifyAndResumedWithOtherParallelism_then_everyRecordIsCommittedOnce(
      int before, int after) throws Exception {
    // given: checkpoint 8 completed, its transactions pending, input still arriving
    SeedJobScenario scenario = new SeedJobScenario(kafka.bootstrapServers(), directory);
    long fed = haltBeforeNotify(scenario, before, List.of());

    // when
    int exit;
    String log;
    try (JobProcess resumed =
        scenario.start(null, List.of("-p", Integer.toString(after)), List.of("--bounded"))) {
      exit = SeedJobScenario.awaitExit(resumed, Duration.ofSeconds(90));
      log = SeedJobScenario.log(resumed);
    }

    // then
    assertThat(exit).as(log).isZero();
    assertThat(log).doesNotContain("DATA LOSS").doesNotContain("outcome").doesNotContain("likely");
    OutputVerifier.Verdict verdict = scenario.readCommitted().verify(0, fed);
    System.out.printf("rescale -p %d -> -p %d: %s%n", before, after, verdict.line());
    assertThat(verdict.exactlyOnce()).as(verdict.line()).isTrue();
    assertThat(verdict.out()).isEqualTo(fed);
  }

  @Test
  void
      when_pendingTransactionWasAbortedByTheBroker_then_restoreFailsWithOneLine_untilDataLossIsAccepted()
          throws Exception {
    // given: the pending transactions of checkpoint 8 outlive the transaction timeout
    SeedJobScenario scenario = new SeedJobScenario(kafka.bootstrapServers(), directory);
    List<String> shortTimeout =
        List.of("--transaction-timeout", Long.toString(TRANSACTION_TIMEOUT.toMillis()));
    long fed = haltBeforeNotify(scenario, 1, shortTimeout);
    awaitNoOpenTransaction(scenario.transactionalIdPrefix());
    assertThat(fed).isPositive();

    // when
    int refused;
    String refusal;
    try (JobProcess restored = scenario.start(null, List.of(), bounded(shortTimeout))) {
      refused = SeedJobScenario.awaitExit(restored, Duration.ofSeconds(90));
      refusal = SeedJobScenario.log(restored);
    }

    // then: one line names checkpoint, sink, transaction and record count
    assertThat(refused).as(refusal).isNotZero();
    assertThat(refusal)
        .containsPattern(
            "DATA LOSS: checkpoint \\d+, sink 'Sink: Example Sink', transaction "
                + Pattern.quote(scenario.transactionalIdPrefix())
                + "-0-\\d+: [\\d,]+ records were aborted before they could be committed;"
                + " to continue without them, rerun with --accept-data-loss");
    assertThat(refusal).doesNotContain("\tat ");

    // when: the loss is accepted
    int accepted;
    String log;
    try (JobProcess restored =
        scenario.start(null, List.of("--accept-data-loss"), bounded(shortTimeout))) {
      accepted = SeedJobScenario.awaitExit(restored, Duration.ofSeconds(90));
      log = SeedJobScenario.log(restored);
    }

    // then: it finishes, yet with a non-zero exit that repeats what was lost; what was lost is
    // exactly what its lines name, nothing doubled
    assertThat(accepted).as(log).isNotZero();
    assertThat(log)
        .contains("finished without the records of")
        .contains("as --accept-data-loss allowed");
    OutputVerifier.Verdict verdict = scenario.readCommitted().verify(0, fed);
    System.out.printf("restore past an aborted transaction: %s%n", verdict.line());
    assertThat(verdict.duplicated()).isZero();
    assertThat(verdict.lost()).isPositive().isEqualTo(lostRecords(log));
  }

  /**
   * Runs the job with {@code coordinator.notify.before} armed to halt at {@link
   * #HALTING_CHECKPOINT} while input arrives at {@link #RATE} from its start (so the pending
   * transactions hold records); returns how many records were fed.
   */
  private static long haltBeforeNotify(
      SeedJobScenario scenario, int parallelism, List<String> jobOptions) throws Exception {
    long fed;
    try (JobProcess job =
            scenario.start(
                "coordinator.notify.before=halt@" + HALTING_CHECKPOINT,
                List.of("-p", Integer.toString(parallelism)),
                jobOptions);
        ContinuousFeed feed = scenario.feedContinuously(RATE)) {
      SeedJobScenario.awaitExit(job, Duration.ofSeconds(180));
      fed = feed.stop();
      assertThat(SeedJobScenario.log(job)).contains("failpoint coordinator.notify.before hit");
    }
    return fed;
  }

  private static List<String> bounded(List<String> jobOptions) {
    return java.util.stream.Stream.concat(
            jobOptions.stream(), java.util.stream.Stream.of("--bounded"))
        .toList();
  }

  /**
   * The records the DATA LOSS lines name, each transaction counted once (the exit repeats them).
   */
  private static long lostRecords(String log) {
    var matcher =
        Pattern.compile("transaction (\\S+): ([\\d,]+) records were aborted").matcher(log);
    Map<String, Long> lost = new HashMap<>();
    while (matcher.find()) {
      lost.put(matcher.group(1), Long.parseLong(matcher.group(2).replace(",", "")));
    }
    return lost.values().stream().mapToLong(Long::longValue).sum();
  }

  private static void awaitNoOpenTransaction(String prefix) {
    try (LingeringTransactions transactions =
        new LingeringTransactions(
            Map.of(AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG, kafka.bootstrapServers()))) {
      await()
          .atMost(Duration.ofSeconds(60))
          .pollInterval(Duration.ofMillis(300))
          .until(() -> transactions.list(prefix + "-").isEmpty());
    }
  }
}
