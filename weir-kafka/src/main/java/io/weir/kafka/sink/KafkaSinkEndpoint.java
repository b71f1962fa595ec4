package io.weir.kafka.sink;

import java.util.Map;
import java.util.Optional;

/**
 * Where an exactly-once Kafka sink writes and the prefix of its transactional ids ({@code
 * prefix-subtask-n}), for observers that ask the broker about its open transactions.
 */
public record KafkaSinkEndpoint(
    Map<String, Object> clientConfig, String topic, String transactionalIdPrefix) {

  public KafkaSinkEndpoint {
    clientConfig = Map.copyOf(clientConfig);
  }

  /** The endpoint of {@code function} when it is a transactional Kafka sink. */
  public static Optional<KafkaSinkEndpoint> of(Object function) {
    if (!(function instanceof TransactionalKafkaSink<?> sink)) {
      return Optional.empty();
    }
    KafkaSinkConfig<?> config = sink.config();
    return Optional.of(
        new KafkaSinkEndpoint(
            config.producerConfig(), config.topic(), config.transactionalIdPrefix()));
  }
}
