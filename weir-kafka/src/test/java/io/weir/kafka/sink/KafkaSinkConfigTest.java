package io.weir.kafka.sink;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.util.Map;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.junit.jupiter.api.Test;

class KafkaSinkConfigTest {
  @Test
  void anExactlyOnceSinkBatchesForItsCommitAndTheOthersForTheirReaders() {
    assertThat(config(DeliveryGuarantee.EXACTLY_ONCE, Map.of()).producerConfig())
        .containsEntry(ProducerConfig.LINGER_MS_CONFIG, "20")
        .containsEntry(ProducerConfig.BATCH_SIZE_CONFIG, "65536");
    assertThat(config(DeliveryGuarantee.AT_LEAST_ONCE, Map.of()).producerConfig())
        .containsEntry(ProducerConfig.LINGER_MS_CONFIG, "5")
        .doesNotContainKey(ProducerConfig.BATCH_SIZE_CONFIG);
  }

  @Test
  void theUsersPropertiesWin() {
    Map<String, String> properties =
        Map.of(ProducerConfig.LINGER_MS_CONFIG, "0", ProducerConfig.BATCH_SIZE_CONFIG, "1024");
    assertThat(config(DeliveryGuarantee.EXACTLY_ONCE, properties).producerConfig())
        .containsEntry(ProducerConfig.LINGER_MS_CONFIG, "0")
        .containsEntry(ProducerConfig.BATCH_SIZE_CONFIG, "1024");
  }

  private static KafkaSinkConfig<String> config(
      DeliveryGuarantee guarantee, Map<String, String> properties) {
    return new KafkaSinkConfig<>(
        "127.0.0.1:9092",
        "out",
        KafkaRecordSerializer.utf8(),
        guarantee,
        "prefix",
        Duration.ofSeconds(60),
        5,
        Duration.ofSeconds(1),
        properties,
        Duration.ofSeconds(60),
        Duration.ofSeconds(30));
  }
}
