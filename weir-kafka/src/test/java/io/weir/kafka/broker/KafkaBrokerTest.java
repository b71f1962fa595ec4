package io.weir.kafka.broker;

import static org.assertj.core.api.Assertions.assertThat;

import io.weir.kafka.testing.KafkaBrokerExtension;
import io.weir.kafka.testing.KafkaTestClients;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

class KafkaBrokerTest {
  @RegisterExtension static final KafkaBrokerExtension kafka = new KafkaBrokerExtension();

  @Test
  void when_started_then_servesOnLoopbackAndWritesItsStateFile() {
    KafkaBroker broker = kafka.broker();

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
    KafkaTestClients.createTopic(kafka.bootstrapServers(), topic, 2);
    try (KafkaProducer<String, String> producer =
        new KafkaProducer<>(KafkaTestClients.producerConfig(kafka.bootstrapServers()))) {
      for (int i = 0; i < 50; i++) {
        producer
            .send(new ProducerRecord<>(topic, "key-" + i, "value-" + i))
            .get(30, TimeUnit.SECONDS);
      }
    }
    long firstPid = kafka.broker().pid();

    // when: the broker crashes and comes back on the same directory
    kafka.broker().kill();
    assertThat(ProcessHandle.of(firstPid)).isEmpty();
    kafka.broker().restart();

    // then
    assertThat(kafka.broker().pid()).isNotEqualTo(firstPid);
    List<String> values =
        KafkaTestClients.readAll(kafka.bootstrapServers(), topic, "read_uncommitted");
    assertThat(values).hasSize(50).contains("value-0", "value-49");
  }
}
