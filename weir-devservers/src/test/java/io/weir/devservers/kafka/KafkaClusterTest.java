package io.weir.devservers.kafka;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.Config;
import org.apache.kafka.clients.admin.NewTopic;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.config.ConfigResource;
import org.apache.kafka.common.serialization.StringSerializer;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class KafkaClusterTest {
  @TempDir static Path directory;
  private static KafkaCluster cluster;

  @BeforeAll
  static void startCluster() {
    cluster = KafkaCluster.start(KafkaClusterConfig.inDirectory(directory.resolve("cluster")));
  }

  @AfterAll
  static void stopCluster() {
    cluster.stop();
  }

  @Test
  void when_started_then_threeBrokersServeAReplicatedTopic() throws Exception {
    assertThat(cluster.brokers()).extracting(KafkaBroker::nodeId).containsExactly(1, 2, 3);
    assertThat(KafkaCluster.running(cluster.directory())).hasSize(3);
    try (Admin admin = Admin.create(Map.of("bootstrap.servers", cluster.bootstrapServers()))) {
      assertThat(admin.describeCluster().nodes().get(30, TimeUnit.SECONDS)).hasSize(3);
      // created with the cluster's defaults, as jobs' topics are
      admin
          .createTopics(
              List.of(
                  new NewTopic("replicated", java.util.Optional.of(2), java.util.Optional.empty())))
          .all()
          .get(30, TimeUnit.SECONDS);
      // The broker that answers a describe may learn of the new topic a little later.
      await()
          .atMost(Duration.ofSeconds(30))
          .ignoreException(ExecutionException.class)
          .untilAsserted(
              () ->
                  assertThat(
                          admin
                              .describeTopics(List.of("replicated"))
                              .allTopicNames()
                              .get(30, TimeUnit.SECONDS)
                              .get("replicated")
                              .partitions())
                      .hasSize(2)
                      .allSatisfy(p -> assertThat(p.replicas()).hasSize(3)));
      Config brokerConfig =
          admin
              .describeConfigs(List.of(new ConfigResource(ConfigResource.Type.BROKER, "1")))
              .all()
              .get(30, TimeUnit.SECONDS)
              .values()
              .iterator()
              .next();
      assertThat(brokerConfig.get("min.insync.replicas").value()).isEqualTo("2");
      assertThat(brokerConfig.get("unclean.leader.election.enable").value()).isEqualTo("false");
      assertThat(brokerConfig.get("transaction.state.log.replication.factor").value())
          .isEqualTo("3");
      assertThat(brokerConfig.get("offsets.topic.replication.factor").value()).isEqualTo("3");
    }
  }

  @Test
  void when_oneBrokerIsKilled_then_acknowledgedWritesContinueAndItRejoins() throws Exception {
    KafkaBroker victim = cluster.broker(2);
    long firstPid = victim.pid();

    victim.kill();
    try (KafkaProducer<String, String> producer =
        new KafkaProducer<>(
            Map.of("bootstrap.servers", cluster.bootstrapServers(), "acks", "all"),
            new StringSerializer(),
            new StringSerializer())) {
      for (int i = 0; i < 20; i++) {
        producer
            .send(new ProducerRecord<>("while-one-is-down", "key-" + i, "value-" + i))
            .get(60, TimeUnit.SECONDS);
      }
    }
    victim.restart();

    assertThat(victim.pid()).isNotEqualTo(firstPid);
    assertThat(KafkaCluster.running(cluster.directory())).hasSize(3);
  }

  @Test
  void when_startFailsHalfway_then_noBrokerProcessIsLeft() throws Exception {
    // given: brokers 1 and 2 can start, broker 3's directory is a file
    Path failing = directory.resolve("third-is-a-file");
    Files.createDirectories(failing);
    Files.writeString(failing.resolve("broker-3"), "not a directory");

    assertThatThrownBy(() -> KafkaCluster.start(KafkaClusterConfig.inDirectory(failing)))
        .isInstanceOf(KafkaBrokerException.class)
        .hasMessageContaining("broker-3");

    assertThat(
            ProcessHandle.allProcesses()
                .filter(ProcessHandle::isAlive)
                .filter(
                    process ->
                        process.info().commandLine().orElse("").contains(failing.toString())))
        .isEmpty();
    assertThat(KafkaCluster.isClusterDirectory(failing)).isTrue();
    assertThat(KafkaCluster.running(failing)).isEmpty();
  }
}
