package io.weir.kafka.source;

import io.weir.api.eventtime.WatermarkStrategy;
import java.io.Serializable;
import java.time.Duration;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.apache.kafka.clients.admin.AdminClientConfig;

/** What a {@link KafkaSource} reads and how; made by {@link KafkaSource#builder()}. */
record KafkaSourceConfig<T>(
    String bootstrapServers,
    List<String> topics,
    String topicPattern,
    String groupId,
    KafkaRecordDeserializer<T> deserializer,
    StartingOffsets startingOffsets,
    long startingTimestamp,
    boolean commitOffsetsOnCheckpoint,
    WatermarkStrategy<T> watermarkStrategy,
    DeserializationFailurePolicy failurePolicy,
    OutOfRangePolicy outOfRangePolicy,
    RecreatedTopicPolicy recreatedTopicPolicy,
    Duration startTimeout,
    Duration partitionDiscoveryInterval,
    boolean bounded,
    Map<String, String> consumerProperties,
    DeadLetterConfig deadLetters)
    implements Serializable {

  String describeTopics() {
    return topicPattern != null ? "topics matching '" + topicPattern + "'" : "topics " + topics;
  }

  /** The settings of an admin client that asks the brokers about what this source reads. */
  Map<String, Object> adminConfig() {
    Map<String, Object> admin = new HashMap<>(consumerProperties);
    admin.put(AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrapServers);
    return admin;
  }
}
