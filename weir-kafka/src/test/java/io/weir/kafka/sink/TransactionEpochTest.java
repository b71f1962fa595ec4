package io.weir.kafka.sink;

import static org.assertj.core.api.Assertions.assertThat;

import io.weir.kafka.testing.KafkaBrokerExtension;
import io.weir.kafka.testing.KafkaTestClients;
import io.weir.kafka.transaction.PendingTransaction;
import io.weir.kafka.transaction.RecoveryOutcome;
import io.weir.kafka.transaction.TransactionResumer;
import java.time.Duration;
import java.util.HashMap;
import java.util.Map;
import java.util.Properties;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * Transaction protocol v2 bumps the producer epoch at every commit, as the exactly-once sink's
 * producers do one checkpoint after another. Reading the producer id and epoch at pre-commit (as
 * the sink does) must give the values of the transaction under way after many commits, so that a
 * restore can still commit the last one. (Running out of epochs takes ~32,767 transactions per id,
 * too slow for this suite; then the coordinator hands out a new producer id with the commit's
 * answer, and the same read at the next pre-commit sees it.)
 */
class TransactionEpochTest {
  static final int TRANSACTIONS = 100;
  static final int RECORDS_PER_TRANSACTION = 3;

  @RegisterExtension static final KafkaBrokerExtension kafka = new KafkaBrokerExtension();

  @Test
  void when_manyTransactionsRanOnOneProducer_then_theLastOneResumesFromItsPreCommitEpoch() {
    // given: one producer, many committed transactions, the last one left open
    String topic = "epochs";
    KafkaTestClients.createTopic(kafka.bootstrapServers(), topic, 2);
    Properties config = KafkaTestClients.producerConfig(kafka.bootstrapServers());
    config.put(ProducerConfig.TRANSACTIONAL_ID_CONFIG, "epochs-0");
    PendingTransaction previous = null;
    PendingTransaction last;
    KafkaProducer<String, String> producer = new KafkaProducer<>(config);
    producer.initTransactions();
    for (int transaction = 0; ; transaction++) {
      producer.beginTransaction();
      for (int record = 0; record < RECORDS_PER_TRANSACTION; record++) {
        producer.send(new ProducerRecord<>(topic, transaction + "-" + record));
      }
      producer.flush();
      last = TransactionResumer.pendingTransactionOf(producer);
      if (previous != null) {
        assertThat(last.producerId()).isEqualTo(previous.producerId());
        assertThat(last.epoch()).isGreaterThan(previous.epoch());
      }
      if (transaction == TRANSACTIONS - 1) {
        break;
      }
      producer.commitTransaction();
      previous = last;
    }
    // Like kill -9 after the pre-commit: the open transaction is left to the broker.
    producer.close(Duration.ZERO);

    // when
    Map<String, Object> resumeConfig = new HashMap<>();
    resumeConfig.put(ProducerConfig.BOOTSTRAP_SERVERS_CONFIG, kafka.bootstrapServers());
    RecoveryOutcome outcome =
        TransactionResumer.recoverAndCommit(resumeConfig, last, topic).outcome();

    // then
    assertThat(outcome).isEqualTo(RecoveryOutcome.COMMITTED);
    assertThat(last.epoch()).isGreaterThanOrEqualTo((short) (TRANSACTIONS - 1));
    assertThat(KafkaTestClients.readAll(kafka.bootstrapServers(), topic, "read_committed"))
        .hasSize(TRANSACTIONS * RECORDS_PER_TRANSACTION);
  }
}
