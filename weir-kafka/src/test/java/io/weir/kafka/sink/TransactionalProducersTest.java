package io.weir.kafka.sink;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.weir.kafka.testing.KafkaBrokerExtension;
import io.weir.kafka.testing.KafkaTestClients;
import java.time.Duration;
import java.util.Map;
import java.util.Set;
import java.util.stream.Collectors;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AdminClientConfig;
import org.apache.kafka.clients.admin.TransactionListing;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/** A sink subtask's pool of transactional producers on a real broker. */
class TransactionalProducersTest {
  @RegisterExtension static final KafkaBrokerExtension kafka = new KafkaBrokerExtension();

  @Test
  void when_initialised_then_theFirstTwoIdsAreReadyAtOnceAndTheRestOfThePoolFollows()
      throws Exception {
    KafkaTestClients.createTopic(kafka.bootstrapServers(), "pool-out", 1);
    try (TransactionalProducers producers = new TransactionalProducers(config("pool"), 0)) {
      producers.initialise(3);

      // The broker knows an id once its producer asked for a producer id (initTransactions).
      assertThat(knownIds("pool-0-")).contains("pool-0-3", "pool-0-4");
      await()
          .atMost(Duration.ofSeconds(30))
          .untilAsserted(
              () ->
                  assertThat(knownIds("pool-0-"))
                      .containsExactlyInAnyOrder(
                          "pool-0-0", "pool-0-1", "pool-0-2", "pool-0-3", "pool-0-4"));
      for (int index = 0; index < 5; index++) {
        KafkaProducer<byte[], byte[]> producer = producers.producer(index);
        producer.beginTransaction();
        producer.send(new ProducerRecord<>("pool-out", ("record " + index).getBytes())).get();
        producer.commitTransaction();
      }
    }

    assertThat(KafkaTestClients.readAll(kafka.bootstrapServers(), "pool-out", "read_committed"))
        .containsExactlyInAnyOrder("record 0", "record 1", "record 2", "record 3", "record 4");
  }

  @Test
  void when_closedWhileThePoolStillStarts_then_noProducerIsLeftRunning() throws Exception {
    TransactionalProducers producers = new TransactionalProducers(config("closing"), 1);
    producers.initialise(0);
    producers.close();

    // Every producer, including those started in the background, ends with its network thread.
    await()
        .atMost(Duration.ofSeconds(30))
        .untilAsserted(
            () ->
                assertThat(
                        Thread.getAllStackTraces().keySet().stream()
                            .map(Thread::getName)
                            .filter(name -> name.contains("closing-1-"))
                            .collect(Collectors.toList()))
                    .isEmpty());
  }

  private static Set<String> knownIds(String prefix) throws Exception {
    try (Admin admin =
        Admin.create(
            Map.of(AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG, kafka.bootstrapServers()))) {
      return admin.listTransactions().all().get().stream()
          .map(TransactionListing::transactionalId)
          .filter(id -> id.startsWith(prefix))
          .collect(Collectors.toSet());
    }
  }

  private static KafkaSinkConfig<String> config(String prefix) {
    return new KafkaSinkConfig<>(
        kafka.bootstrapServers(),
        "pool-out",
        KafkaRecordSerializer.utf8(),
        DeliveryGuarantee.EXACTLY_ONCE,
        prefix,
        Duration.ofSeconds(60),
        5,
        Duration.ofSeconds(1),
        Map.of(),
        Duration.ofSeconds(60));
  }
}
