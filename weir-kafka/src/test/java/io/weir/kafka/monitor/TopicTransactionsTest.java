package io.weir.kafka.monitor;

import static org.assertj.core.api.Assertions.assertThat;

import io.weir.kafka.testing.KafkaBrokerExtension;
import io.weir.kafka.testing.KafkaTestClients;
import java.time.Duration;
import java.util.Map;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.serialization.StringSerializer;
import org.awaitility.Awaitility;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

class TopicTransactionsTest {
  @RegisterExtension static final KafkaBrokerExtension kafka = new KafkaBrokerExtension();

  @Test
  void when_aTransactionIsOpenOnOnePartition_then_notAllAreDecidedUntilItCommits()
      throws Exception {
    // given: a topic of two partitions, one record committed on each
    String topic = "decided";
    KafkaTestClients.createTopic(kafka.bootstrapServers(), topic, 2);
    try (KafkaProducer<String, String> producer = transactionalProducer("decided-writer")) {
      producer.initTransactions();
      producer.beginTransaction();
      producer.send(new ProducerRecord<>(topic, 0, "k", "committed-0"));
      producer.send(new ProducerRecord<>(topic, 1, "k", "committed-1"));
      producer.commitTransaction();
      Awaitility.await()
          .atMost(Duration.ofMinutes(1))
          .until(() -> TopicTransactions.allDecided(kafka.bootstrapServers(), topic));

      // when: a second transaction writes to partition 1 and stays open
      producer.beginTransaction();
      producer.send(new ProducerRecord<>(topic, 1, "k", "open")).get();

      // then
      assertThat(TopicTransactions.allDecided(kafka.bootstrapServers(), topic)).isFalse();

      // and once it commits, its markers are written and all are decided again
      producer.commitTransaction();
      Awaitility.await()
          .atMost(Duration.ofMinutes(1))
          .until(() -> TopicTransactions.allDecided(kafka.bootstrapServers(), topic));
    }
    assertThat(KafkaTestClients.readAll(kafka.bootstrapServers(), topic, "read_committed"))
        .containsExactlyInAnyOrder("committed-0", "committed-1", "open");
  }

  private static KafkaProducer<String, String> transactionalProducer(String transactionalId) {
    return new KafkaProducer<>(
        Map.of(
            ProducerConfig.BOOTSTRAP_SERVERS_CONFIG,
            kafka.bootstrapServers(),
            ProducerConfig.TRANSACTIONAL_ID_CONFIG,
            transactionalId),
        new StringSerializer(),
        new StringSerializer());
  }
}
