package io.weir.devservers.kafka;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.NewTopic;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.serialization.StringDeserializer;
import org.apache.kafka.common.serialization.StringSerializer;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class KafkaBrokerTest {
  @TempDir static Path directory;
  private static KafkaBroker broker;

  @BeforeAll
  static void startBroker() {
    broker = KafkaBroker.start(KafkaBrokerConfig.inDirectory(directory));
  }

  @AfterAll
  static void stopBroker() {
    broker.stop();
  }

  @Test
  void when_started_then_servesOnLoopbackAndWritesItsStateFile() {
    assertThat(broker.isAlive()).isTrue();
    assertThat(broker.bootstrapServers()).isEqualTo("127.0.0.1:" + broker.port());
    assertThat(KafkaBroker.running(broker.directory()))
        .hasValueSatisfying(
            state -> {
              assertThat(state.pid()).isEqualTo(broker.pid());
              assertThat(state.port()).isEqualTo(broker.port());
            });
    assertThat(broker.logFile()).isNotEmptyFile();
  }

  @Test
  void when_killedAndRestarted_then_committedRecordsAreKept() throws Exception {
    // given: records acknowledged by the broker
    String topic = "kept-after-crash";
    try (Admin admin = Admin.create(Map.of("bootstrap.servers", broker.bootstrapServers()))) {
      admin
          .createTopics(List.of(new NewTopic(topic, 2, (short) 1)))
          .all()
          .get(30, TimeUnit.SECONDS);
    }
    try (KafkaProducer<String, String> producer =
        new KafkaProducer<>(
            Map.of("bootstrap.servers", broker.bootstrapServers(), "acks", "all"),
            new StringSerializer(),
            new StringSerializer())) {
      for (int i = 0; i < 50; i++) {
        producer
            .send(new ProducerRecord<>(topic, "key-" + i, "value-" + i))
            .get(30, TimeUnit.SECONDS);
      }
    }
    long firstPid = broker.pid();

    // when: the broker crashes and comes back on the same directory
    broker.kill();
    assertThat(ProcessHandle.of(firstPid)).isEmpty();
    broker.restart();

    // then
    assertThat(broker.pid()).isNotEqualTo(firstPid);
    List<String> values = readAll(topic, 2);
    assertThat(values).hasSize(50).contains("value-0", "value-49");
  }

  private static List<String> readAll(String topic, int partitions) {
    List<TopicPartition> assigned = new ArrayList<>();
    for (int partition = 0; partition < partitions; partition++) {
      assigned.add(new TopicPartition(topic, partition));
    }
    List<String> values = new ArrayList<>();
    try (KafkaConsumer<String, String> consumer =
        new KafkaConsumer<>(
            Map.of("bootstrap.servers", broker.bootstrapServers()),
            new StringDeserializer(),
            new StringDeserializer())) {
      consumer.assign(assigned);
      consumer.seekToBeginning(assigned);
      Map<TopicPartition, Long> ends = consumer.endOffsets(assigned);
      while (assigned.stream().anyMatch(p -> consumer.position(p) < ends.get(p))) {
        for (ConsumerRecord<String, String> record : consumer.poll(Duration.ofSeconds(1))) {
          values.add(record.value());
        }
      }
    }
    return values;
  }
}
