package io.weir.kafka.sink;

import static org.assertj.core.api.Assertions.assertThat;

import io.weir.kafka.testing.KafkaBrokerExtension;
import io.weir.kafka.testing.KafkaTestClients;
import java.util.Map;
import java.util.Properties;
import java.util.Set;
import java.util.TreeMap;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.common.serialization.ByteArraySerializer;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/** The proof of a transaction's outcome by its marker, against a real broker. */
class TransactionMarkersTest {
  @RegisterExtension static final KafkaBrokerExtension kafka = new KafkaBrokerExtension();

  @Test
  void when_prefixesDifferOnlyInCharactersATopicCannotHold_then_theirMarkerTopicsDiffer() {
    assertThat(TransactionMarkers.topicOf("a b")).isNotEqualTo(TransactionMarkers.topicOf("a_b"));
    assertThat(TransactionMarkers.topicOf("orders.v1"))
        .isNotEqualTo(TransactionMarkers.topicOf("orders_v1"));
    assertThat(TransactionMarkers.topicOf("seed-2")).isEqualTo("weir-markers.seed-2");
  }

  @Test
  void when_theMarkerAtARecordedOffsetIsAnotherTransactions_then_itProvesNoCommit() {
    // given: at offset 0 of the marker topic, the committed marker of another transactional id
    TransactionMarkers markers =
        new TransactionMarkers(Map.of("bootstrap.servers", kafka.bootstrapServers()), "twin");
    markers.ensureTopic();
    commitMarker(markers, "twin-other-0-0");
    // when
    Set<Long> committed = markers.committedAmong(new TreeMap<>(Map.of(0L, "twin-0-0")));
    // then
    assertThat(committed).isEmpty();
    assertThat(markers.committedAmong(new TreeMap<>(Map.of(0L, "twin-other-0-0"))))
        .containsExactly(0L);
  }

  private static void commitMarker(TransactionMarkers markers, String transactionalId) {
    Properties config = KafkaTestClients.producerConfig(kafka.bootstrapServers());
    config.put(ProducerConfig.KEY_SERIALIZER_CLASS_CONFIG, ByteArraySerializer.class.getName());
    config.put(ProducerConfig.VALUE_SERIALIZER_CLASS_CONFIG, ByteArraySerializer.class.getName());
    config.put(ProducerConfig.TRANSACTIONAL_ID_CONFIG, transactionalId);
    try (KafkaProducer<byte[], byte[]> producer = new KafkaProducer<>(config)) {
      producer.initTransactions();
      producer.beginTransaction();
      producer.send(markers.marker(transactionalId, 0, (short) 0, 1));
      producer.commitTransaction();
    }
  }
}
