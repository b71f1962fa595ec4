package io.weir.devservers.kafka;

import static org.assertj.core.api.Assertions.assertThat;

import io.weir.devservers.process.FreePorts;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.IntSupplier;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.NewTopic;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.serialization.StringDeserializer;
import org.apache.kafka.common.serialization.StringSerializer;
import org.awaitility.Awaitility;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A port chosen free for one broker of a cluster and taken by another process before the broker
 * binds it: the cluster starts again on fresh ports, as a single broker does ({@link
 * KafkaBrokerPortConflictTest}).
 */
class KafkaClusterPortConflictTest {
  private static final String TOPIC = "replicated";

  @TempDir Path directory;

  @Test
  void when_aChosenPortIsTakenBeforeABrokerBindsIt_then_theClusterStartsOnFreshPorts()
      throws Exception {
    try (ServerSocket taken = new ServerSocket(0, 1, InetAddress.getByName(FreePorts.HOST))) {
      // given: the first port chosen, broker 1's client port, is one another socket holds
      AtomicInteger chosen = new AtomicInteger();
      IntSupplier takenFirst =
          () -> chosen.getAndIncrement() == 0 ? taken.getLocalPort() : FreePorts.pick();

      // when
      try (KafkaCluster cluster =
          KafkaCluster.start(KafkaClusterConfig.inDirectory(directory), takenFirst)) {

        // then: three client and three controller ports chosen twice, none of them the taken one.
        // At least twice: the system may hand out a port it handed out a moment ago, and a port
        // chosen twice in one try is chosen again.
        assertThat(chosen.get()).isGreaterThanOrEqualTo(12);
        assertThat(cluster.brokers())
            .extracting(KafkaBroker::port)
            .doesNotContain(taken.getLocalPort());
        assertThat(Files.readString(cluster.broker(1).logFile()))
            .contains("failed to bind to 127.0.0.1:" + taken.getLocalPort());
        // and three brokers serve a topic on all three of them
        assertThat(KafkaCluster.running(directory)).hasSize(3);
        createReplicatedTopic(cluster.bootstrapServers());
        produce(cluster.bootstrapServers(), "the-record");
        assertThat(consume(cluster.bootstrapServers())).containsExactly("the-record");
      }
    }
  }

  private static void createReplicatedTopic(String bootstrapServers) throws Exception {
    try (Admin admin = Admin.create(Map.of("bootstrap.servers", bootstrapServers))) {
      assertThat(admin.describeCluster().nodes().get(30, TimeUnit.SECONDS)).hasSize(3);
      admin
          .createTopics(List.of(new NewTopic(TOPIC, Optional.of(1), Optional.of((short) 3))))
          .all()
          .get(30, TimeUnit.SECONDS);
      // The broker that answers may learn of the new topic a moment after the controller made it.
      Awaitility.await()
          .atMost(Duration.ofSeconds(30))
          .ignoreExceptions()
          .untilAsserted(
              () ->
                  assertThat(
                          admin
                              .describeTopics(List.of(TOPIC))
                              .allTopicNames()
                              .get(30, TimeUnit.SECONDS)
                              .get(TOPIC)
                              .partitions())
                      .singleElement()
                      .satisfies(partition -> assertThat(partition.isr()).hasSize(3)));
    }
  }

  private static void produce(String bootstrapServers, String value) throws Exception {
    try (KafkaProducer<String, String> producer =
        new KafkaProducer<>(
            Map.of("bootstrap.servers", bootstrapServers, "acks", "all"),
            new StringSerializer(),
            new StringSerializer())) {
      producer.send(new ProducerRecord<>(TOPIC, value)).get(30, TimeUnit.SECONDS);
    }
  }

  private static List<String> consume(String bootstrapServers) {
    List<String> values = new ArrayList<>();
    try (KafkaConsumer<String, String> consumer =
        new KafkaConsumer<>(
            Map.of("bootstrap.servers", bootstrapServers, "auto.offset.reset", "earliest"),
            new StringDeserializer(),
            new StringDeserializer())) {
      // assigned, not subscribed: no group, so nothing waits for a rebalance
      consumer.assign(List.of(new TopicPartition(TOPIC, 0)));
      Awaitility.await()
          .atMost(Duration.ofSeconds(60))
          .until(
              () -> {
                for (ConsumerRecord<String, String> record :
                    consumer.poll(Duration.ofMillis(500))) {
                  values.add(record.value());
                }
                return !values.isEmpty();
              });
    }
    return values;
  }
}
