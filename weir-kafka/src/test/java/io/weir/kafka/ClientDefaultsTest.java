package io.weir.kafka;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.Duration;
import java.util.HashMap;
import java.util.Map;
import java.util.Properties;
import org.apache.kafka.clients.CommonClientConfigs;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.common.serialization.ByteArraySerializer;
import org.junit.jupiter.api.Test;

class ClientDefaultsTest {
  @Test
  void when_theJobSetsNothing_then_theClientPushesNoMetrics() {
    Map<String, Object> config = new HashMap<>();
    // Made, not connected: nothing listens there.
    config.put(ProducerConfig.BOOTSTRAP_SERVERS_CONFIG, "127.0.0.1:1");
    config.put(ProducerConfig.KEY_SERIALIZER_CLASS_CONFIG, ByteArraySerializer.class);
    config.put(ProducerConfig.VALUE_SERIALIZER_CLASS_CONFIG, ByteArraySerializer.class);

    try (KafkaProducer<byte[], byte[]> producer =
        new KafkaProducer<>(ClientDefaults.withoutMetricsPush(config))) {
      // A client instance id exists only where the client pushes its metrics.
      assertThatThrownBy(() -> producer.clientInstanceId(Duration.ofMillis(1)))
          .isInstanceOf(IllegalStateException.class)
          .hasMessageContaining("enable.metrics.push");
    }
  }

  @Test
  void when_theJobTurnsThePushOn_then_itStaysOn() {
    Properties properties = new Properties();
    properties.put(CommonClientConfigs.ENABLE_METRICS_PUSH_CONFIG, "true");

    ClientDefaults.withoutMetricsPush(properties);

    assertThat(properties).containsEntry(CommonClientConfigs.ENABLE_METRICS_PUSH_CONFIG, "true");
  }
}
