package io.weir.kafka.transaction;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.weir.kafka.testing.KafkaBrokerExtension;
import io.weir.kafka.testing.KafkaTestClients;
import io.weir.kafka.testing.OpenTransactionsProcess;
import java.time.Duration;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/** Resuming transactions of a killed producer process on a real broker (protocol v2). */
class TransactionResumerTest {
  @RegisterExtension
  static final KafkaBrokerExtension kafka =
      new KafkaBrokerExtension(
          config -> config.withTransactionAbortCheckInterval(Duration.ofMillis(500)));

  private static final Duration LONG_TIMEOUT = Duration.ofMinutes(5);

  @Test
  void when_producerKilledMidTransaction_then_recoverAndCommitMakesEveryRecordVisibleOnce()
      throws Exception {
    // given: 100 flushed records in the open transaction of a killed process
    String topic = "resume-commit";
    KafkaTestClients.createTopic(kafka.bootstrapServers(), topic, 3);
    PendingTransaction pending;
    try (OpenTransactionsProcess child =
        OpenTransactionsProcess.start(
            kafka.bootstrapServers(), topic, 100, LONG_TIMEOUT, "resume-0")) {
      pending = child.transaction("resume-0");
      child.kill();
    }
    assertThat(readCommitted(topic)).isEmpty();
    assertThat(readUncommitted(topic)).hasSize(100);

    // when
    RecoveryCommitResult result =
        TransactionResumer.recoverAndCommit(clientConfig(), pending, topic);

    // then
    assertThat(result.outcome()).isEqualTo(RecoveryOutcome.COMMITTED);
    assertThat(result.error()).isEmpty();
    List<String> committed = readCommitted(topic);
    assertThat(committed).hasSize(100);
    assertThat(new HashSet<>(committed)).hasSize(100).contains("resume-0-0", "resume-0-99");
  }

  @Test
  void when_commitIsReplayed_then_outcomeIsCommittedAndNothingIsDuplicated() throws Exception {
    // given: a recovered transaction, committed once
    String topic = "resume-replay";
    KafkaTestClients.createTopic(kafka.bootstrapServers(), topic, 1);
    PendingTransaction pending;
    try (OpenTransactionsProcess child =
        OpenTransactionsProcess.start(
            kafka.bootstrapServers(), topic, 20, LONG_TIMEOUT, "replay-0")) {
      pending = child.transaction("replay-0");
      child.kill();
    }
    assertThat(TransactionResumer.recoverAndCommit(clientConfig(), pending, topic).outcome())
        .isEqualTo(RecoveryOutcome.COMMITTED);

    // when: a second restore from the same checkpoint commits it again
    RecoveryCommitResult replay =
        TransactionResumer.recoverAndCommit(clientConfig(), pending, topic);

    // then
    assertThat(replay.outcome()).isEqualTo(RecoveryOutcome.COMMITTED);
    assertThat(readCommitted(topic)).hasSize(20);
  }

  @Test
  void when_brokerAbortedTheTransaction_then_outcomeIsDataLoss() throws Exception {
    // given: a transaction that outlives its 2 s timeout after its producer died
    String topic = "resume-expired";
    KafkaTestClients.createTopic(kafka.bootstrapServers(), topic, 2);
    PendingTransaction pending;
    try (OpenTransactionsProcess child =
        OpenTransactionsProcess.start(
            kafka.bootstrapServers(), topic, 30, Duration.ofSeconds(2), "expired-0")) {
      pending = child.transaction("expired-0");
      child.kill();
    }
    try (LingeringTransactions lingering = new LingeringTransactions(clientConfig())) {
      await().atMost(Duration.ofSeconds(30)).until(() -> lingering.list("expired-").isEmpty());
    }

    // when
    RecoveryCommitResult result =
        TransactionResumer.recoverAndCommit(clientConfig(), pending, topic);

    // then
    assertThat(result.outcome()).isEqualTo(RecoveryOutcome.ABORTED_BY_BROKER);
    assertThat(result.outcome().isDataLoss()).isTrue();
    assertThat(result.describe()).startsWith("DATA LOSS").contains("expired-0");
    assertThat(readCommitted(topic)).isEmpty();
  }

  @Test
  void when_producerIdIsWrong_then_outcomeIsUnknownProducerAndTransactionStaysCommittable()
      throws Exception {
    // given
    String topic = "resume-wrong-id";
    KafkaTestClients.createTopic(kafka.bootstrapServers(), topic, 1);
    PendingTransaction pending;
    try (OpenTransactionsProcess child =
        OpenTransactionsProcess.start(
            kafka.bootstrapServers(), topic, 10, LONG_TIMEOUT, "wrong-0")) {
      pending = child.transaction("wrong-0");
      child.kill();
    }
    PendingTransaction wrongId =
        new PendingTransaction(
            pending.transactionalId(), pending.producerId() + 1000, pending.epoch());

    // when
    RecoveryCommitResult result =
        TransactionResumer.recoverAndCommit(clientConfig(), wrongId, topic);

    // then
    assertThat(result.outcome()).isIn(RecoveryOutcome.UNKNOWN_PRODUCER_ID, RecoveryOutcome.FENCED);
    assertThat(result.error()).isPresent();
    assertThat(TransactionResumer.recoverAndCommit(clientConfig(), pending, topic).outcome())
        .isEqualTo(RecoveryOutcome.COMMITTED);
    assertThat(readCommitted(topic)).hasSize(10);
  }

  @Test
  void when_readFromLiveProducer_then_pendingTransactionNamesItsIdAndEpochOnProtocolV2() {
    Properties config = KafkaTestClients.producerConfig(kafka.bootstrapServers());
    config.put(ProducerConfig.TRANSACTIONAL_ID_CONFIG, "live-0");
    try (KafkaProducer<String, String> producer = new KafkaProducer<>(config)) {
      producer.initTransactions();
      producer.beginTransaction();
      producer.send(new ProducerRecord<>("resume-live", "k", "v"));
      producer.flush();

      PendingTransaction pending = TransactionResumer.pendingTransactionOf(producer);

      assertThat(pending.transactionalId()).isEqualTo("live-0");
      assertThat(pending.producerId()).isNotNegative();
      assertThat(TransactionResumer.usesTransactionV2(producer)).isTrue();
      producer.commitTransaction();
      assertThat(TransactionResumer.pendingTransactionOf(producer).epoch())
          .isGreaterThan(pending.epoch());
    }
  }

  private static Map<String, Object> clientConfig() {
    return Map.of("bootstrap.servers", kafka.bootstrapServers());
  }

  private static List<String> readCommitted(String topic) {
    return KafkaTestClients.readAll(kafka.bootstrapServers(), topic, "read_committed");
  }

  private static List<String> readUncommitted(String topic) {
    return KafkaTestClients.readAll(kafka.bootstrapServers(), topic, "read_uncommitted");
  }
}
