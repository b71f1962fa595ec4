package io.weir.kafka.sink;

import java.io.Serializable;
import java.time.Duration;
import java.util.HashMap;
import java.util.Map;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.common.serialization.ByteArraySerializer;

/** What a Kafka sink writes and how; made by {@link KafkaSink#builder()}. */
record KafkaSinkConfig<T>(
    String bootstrapServers,
    String topic,
    KafkaRecordSerializer<T> serializer,
    DeliveryGuarantee guarantee,
    String transactionalIdPrefix,
    Duration transactionTimeout,
    int transactionalIdPoolSize,
    Duration checkpointInterval,
    Map<String, String> producerProperties,
    Duration startTimeout)
    implements Serializable {

  /** The configuration of every producer of the sink; transactional ones add their id. */
  Map<String, Object> producerConfig() {
    Map<String, Object> config = new HashMap<>(producerProperties);
    config.put(ProducerConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrapServers);
    config.put(ProducerConfig.KEY_SERIALIZER_CLASS_CONFIG, ByteArraySerializer.class);
    config.put(ProducerConfig.VALUE_SERIALIZER_CLASS_CONFIG, ByteArraySerializer.class);
    config.putIfAbsent(ProducerConfig.LINGER_MS_CONFIG, "5");
    config.putIfAbsent(ProducerConfig.MAX_BLOCK_MS_CONFIG, "30000");
    if (guarantee == DeliveryGuarantee.EXACTLY_ONCE) {
      config.put(ProducerConfig.TRANSACTION_TIMEOUT_CONFIG, (int) transactionTimeout.toMillis());
    } else if (guarantee == DeliveryGuarantee.AT_LEAST_ONCE) {
      config.put(ProducerConfig.ACKS_CONFIG, "all");
    }
    return config;
  }
}
