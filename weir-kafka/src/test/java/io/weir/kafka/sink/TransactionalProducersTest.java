package io.weir.kafka.sink;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

import io.weir.kafka.ClientGauges;
import io.weir.kafka.testing.KafkaBrokerExtension;
import io.weir.kafka.testing.KafkaTestClients;
import java.time.Duration;
import java.util.HashMap;
import java.util.Map;
import java.util.Properties;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.function.Predicate;
import java.util.stream.Collectors;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AdminClientConfig;
import org.apache.kafka.clients.admin.TransactionListing;
import org.apache.kafka.clients.admin.TransactionState;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.KafkaException;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/** A sink subtask's pool of transactional producers on a real broker. */
class TransactionalProducersTest {
  @RegisterExtension static final KafkaBrokerExtension kafka = new KafkaBrokerExtension();

  @Test
  void when_initialised_then_theFirstTwoIdsAreReadyAndTheOthersAreMadeOnFirstUse()
      throws Exception {
    KafkaTestClients.createTopic(kafka.bootstrapServers(), "pool-out", 1);
    try (TransactionalProducers producers = new TransactionalProducers(config("pool"), 0)) {
      producers.initialise();

      // The broker knows an id once something asked for its producer id (initTransactions).
      assertThat(knownIds("pool-0-")).containsExactlyInAnyOrder("pool-0-0", "pool-0-1");
      for (int index = 0; index < 5; index++) {
        KafkaProducer<byte[], byte[]> producer = producers.producer(index);
        producer.beginTransaction();
        producer.send(new ProducerRecord<>("pool-out", ("record " + index).getBytes())).get();
        producer.commitTransaction();
      }
      assertThat(knownIds("pool-0-"))
          .containsExactlyInAnyOrder("pool-0-0", "pool-0-1", "pool-0-2", "pool-0-3", "pool-0-4");
    }

    assertThat(KafkaTestClients.readAll(kafka.bootstrapServers(), "pool-out", "read_committed"))
        .containsExactlyInAnyOrder("record 0", "record 1", "record 2", "record 3", "record 4");
  }

  @Test
  void when_theOtherIdsAreFenced_then_whatAnEarlierProcessLeftOpenUnderThemIsAbortedAndRefused()
      throws Exception {
    // given: an earlier process's transaction left open under the pool's fourth id
    KafkaTestClients.createTopic(kafka.bootstrapServers(), "fenced-out", 1);
    Properties earlierConfig = KafkaTestClients.producerConfig(kafka.bootstrapServers());
    earlierConfig.put(ProducerConfig.TRANSACTIONAL_ID_CONFIG, "fenced-0-3");
    try (KafkaProducer<String, String> earlier = new KafkaProducer<>(earlierConfig);
        TransactionalProducers producers = new TransactionalProducers(config("fenced"), 0);
        Admin admin = admin()) {
      earlier.initTransactions();
      earlier.beginTransaction();
      earlier.send(new ProducerRecord<>("fenced-out", "left open")).get();
      assertThat(openIds("fenced-0-")).containsExactly("fenced-0-3");

      // when
      producers.initialise();
      producers.fenceTheOthers(admin);

      // then: nothing is open under the pool's ids, every id is known, and the earlier producer
      // can no longer commit
      await().atMost(Duration.ofSeconds(30)).until(() -> openIds("fenced-0-").isEmpty());
      assertThat(knownIds("fenced-0-"))
          .containsExactlyInAnyOrder(
              "fenced-0-0", "fenced-0-1", "fenced-0-2", "fenced-0-3", "fenced-0-4");
      assertThatThrownBy(earlier::commitTransaction).isInstanceOf(KafkaException.class);
    }
    assertThat(KafkaTestClients.readAll(kafka.bootstrapServers(), "fenced-out", "read_committed"))
        .isEmpty();
  }

  @Test
  void when_aThirdIdIsNeededWhileTheOthersAreStillBeingFenced_then_itsProducerWaitsForTheFence()
      throws Exception {
    KafkaTestClients.createTopic(kafka.bootstrapServers(), "order-out", 1);
    CompletableFuture<Void> fenced = new CompletableFuture<>();
    try (TransactionalProducers producers = new TransactionalProducers(config("order"), 0);
        Admin admin = admin()) {
      producers.useTheOthersAfter(fenced);
      producers.initialise();

      // when: the first commits fall behind, so a transaction needs the third id, before the
      // fence of the others has reached the broker
      CompletableFuture<KafkaProducer<byte[], byte[]>> third =
          CompletableFuture.supplyAsync(() -> producers.producer(2));

      // then: the third id's producer is not made before the fence has ended, which would have
      // aborted its transaction and refused its records ("produce with an old epoch")
      await()
          .during(Duration.ofSeconds(1))
          .atMost(Duration.ofSeconds(2))
          .until(() -> !third.isDone());
      assertThat(knownIds("order-0-")).containsExactlyInAnyOrder("order-0-0", "order-0-1");
      producers.fenceTheOthers(admin);
      fenced.complete(null);
      KafkaProducer<byte[], byte[]> producer = third.get(30, TimeUnit.SECONDS);
      producer.beginTransaction();
      producer.send(new ProducerRecord<>("order-out", "after the fence".getBytes())).get();
      producer.commitTransaction();
    }
    // The commit's markers are written after commitTransaction returns.
    await()
        .atMost(Duration.ofSeconds(30))
        .untilAsserted(
            () ->
                assertThat(
                        KafkaTestClients.readAll(
                            kafka.bootstrapServers(), "order-out", "read_committed"))
                    .containsExactly("after the fence"));
  }

  @Test
  void when_aProducerIsDiscarded_then_whatItSentStaysCountedAndANewOneTakesItsId()
      throws Exception {
    KafkaTestClients.createTopic(kafka.bootstrapServers(), "discard-out", 1);
    try (TransactionalProducers producers = new TransactionalProducers(config("discard"), 0)) {
      producers.initialise();
      KafkaProducer<byte[], byte[]> first = producers.producer(0);
      first.beginTransaction();
      for (int i = 0; i < 3; i++) {
        first.send(new ProducerRecord<>("discard-out", ("d" + i).getBytes())).get();
      }
      first.abortTransaction();
      assertThat(recordsSent(producers)).isEqualTo(3.0);

      // when
      producers.discard(0);

      // then: the three records stay counted, and the id's next producer adds to them
      assertThat(producers.forGauges().inUse()).noneMatch(producer -> producer == first);
      assertThat(recordsSent(producers)).isEqualTo(3.0);
      KafkaProducer<byte[], byte[]> next = producers.producer(0);
      assertThat(next).isNotSameAs(first);
      next.beginTransaction();
      next.send(new ProducerRecord<>("discard-out", "d3".getBytes())).get();
      next.commitTransaction();
      assertThat(recordsSent(producers)).isEqualTo(4.0);
    }
  }

  /** The sink's gauge of records sent, as the metrics endpoint reads it. */
  private static double recordsSent(TransactionalProducers producers) {
    Map<String, Double> read = new HashMap<>();
    ClientGauges.addProducers(
        (name, gauge) -> read.put(name, gauge.getAsDouble()), producers::forGauges);
    return read.get("kafka_producer_records_sent");
  }

  @Test
  void when_closedWhileThePoolStillStarts_then_noProducerIsLeftRunning() throws Exception {
    TransactionalProducers producers = new TransactionalProducers(config("closing"), 1);
    producers.initialise();
    producers.close();

    // Every producer, including the one started in the background, ends with its network thread.
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
    return ids(prefix, listing -> true);
  }

  private static Set<String> openIds(String prefix) throws Exception {
    return ids(prefix, listing -> listing.state() == TransactionState.ONGOING);
  }

  private static Set<String> ids(String prefix, Predicate<TransactionListing> selected)
      throws Exception {
    try (Admin admin = admin()) {
      return admin.listTransactions().all().get().stream()
          .filter(selected)
          .map(TransactionListing::transactionalId)
          .filter(id -> id.startsWith(prefix))
          .collect(Collectors.toSet());
    }
  }

  private static Admin admin() {
    return Admin.create(
        Map.of(AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG, kafka.bootstrapServers()));
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
        Duration.ofSeconds(60),
        Duration.ofSeconds(30));
  }
}
