package io.weir.kafka.source;

import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * Where a Kafka source reads, for observers that ask the broker about it (its group's position and
 * the partitions' ends).
 *
 * @param topics the topics it reads; empty when it reads a pattern
 */
public record KafkaSourceEndpoint(
    Map<String, Object> clientConfig, List<String> topics, String groupId) {

  public KafkaSourceEndpoint {
    clientConfig = Map.copyOf(clientConfig);
    topics = List.copyOf(topics);
  }

  /** The endpoint of {@code function} when it is a Kafka source. */
  public static Optional<KafkaSourceEndpoint> of(Object function) {
    if (!(function instanceof KafkaSource<?> source)) {
      return Optional.empty();
    }
    KafkaSourceConfig<?> config = source.config();
    return Optional.of(
        new KafkaSourceEndpoint(
            config.adminConfig(),
            config.topics() == null ? List.of() : config.topics(),
            config.groupId()));
  }
}
