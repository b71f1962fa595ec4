package io.weir.kafka;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.lang.management.ManagementFactory;
import java.time.Duration;
import java.util.HashMap;
import java.util.Map;
import java.util.Properties;
import javax.management.ObjectName;
import org.apache.kafka.clients.CommonClientConfigs;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.common.metrics.JmxReporter;
import org.apache.kafka.common.serialization.ByteArraySerializer;
import org.junit.jupiter.api.Test;

class ClientDefaultsTest {
  @Test
  void when_theJobSetsNothing_then_theClientPushesNoMetrics() {
    try (KafkaProducer<byte[], byte[]> producer =
        new KafkaProducer<>(ClientDefaults.applyTo(unconnected("push")))) {
      // A client instance id exists only where the client pushes its metrics.
      assertThatThrownBy(() -> producer.clientInstanceId(Duration.ofMillis(1)))
          .isInstanceOf(IllegalStateException.class)
          .hasMessageContaining("enable.metrics.push");
    }
  }

  @Test
  void when_theJobSetsNothing_then_theClientRegistersNoMBeans() throws Exception {
    try (KafkaProducer<byte[], byte[]> producer =
        new KafkaProducer<>(ClientDefaults.applyTo(unconnected("no-mbeans")))) {
      assertThat(mbeansOf("no-mbeans")).isZero();
      // Its figures are there all the same, through metrics().
      assertThat(producer.metrics()).isNotEmpty();
    }
  }

  @Test
  void when_theJobAsksForJmx_then_theClientRegistersItsMBeans() throws Exception {
    Map<String, Object> config = unconnected("with-mbeans");
    config.put(CommonClientConfigs.METRIC_REPORTER_CLASSES_CONFIG, JmxReporter.class.getName());
    try (KafkaProducer<byte[], byte[]> producer =
        new KafkaProducer<>(ClientDefaults.applyTo(config))) {
      assertThat(mbeansOf("with-mbeans")).isPositive();
    }
  }

  @Test
  void when_theJobTurnsThePushOn_then_itStaysOn() {
    Properties properties = new Properties();
    properties.put(CommonClientConfigs.ENABLE_METRICS_PUSH_CONFIG, "true");

    ClientDefaults.applyTo(properties);

    assertThat(properties).containsEntry(CommonClientConfigs.ENABLE_METRICS_PUSH_CONFIG, "true");
  }

  /** A producer's settings, made and not connected: nothing listens there. */
  private static Map<String, Object> unconnected(String clientId) {
    Map<String, Object> config = new HashMap<>();
    config.put(ProducerConfig.BOOTSTRAP_SERVERS_CONFIG, "127.0.0.1:1");
    config.put(ProducerConfig.CLIENT_ID_CONFIG, clientId);
    config.put(ProducerConfig.KEY_SERIALIZER_CLASS_CONFIG, ByteArraySerializer.class);
    config.put(ProducerConfig.VALUE_SERIALIZER_CLASS_CONFIG, ByteArraySerializer.class);
    return config;
  }

  private static int mbeansOf(String clientId) throws Exception {
    return ManagementFactory.getPlatformMBeanServer()
        .queryNames(new ObjectName("kafka.producer:client-id=" + clientId + ",*"), null)
        .size();
  }
}
