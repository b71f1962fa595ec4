package io.weir.kafka.monitor;

import io.weir.kafka.ClientDefaults;
import io.weir.kafka.source.KafkaSourceEndpoint;
import io.weir.runtime.monitor.KafkaStatus;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AdminClientConfig;
import org.apache.kafka.clients.admin.ListOffsetsOptions;
import org.apache.kafka.clients.admin.OffsetSpec;
import org.apache.kafka.clients.admin.TopicDescription;
import org.apache.kafka.clients.consumer.OffsetAndMetadata;
import org.apache.kafka.common.IsolationLevel;
import org.apache.kafka.common.KafkaException;
import org.apache.kafka.common.TopicPartition;

/**
 * A source's partitions as one admin client sees them: the group's committed offset (the position
 * the job resumes from, committed when a checkpoint completes) and the last stable offset.
 */
final class SourcePositions implements AutoCloseable {
  private static final int TIMEOUT_MS = 5_000;

  private final Admin admin;

  SourcePositions(Map<String, Object> clientConfig) {
    Map<String, Object> config = new HashMap<>(clientConfig);
    config.put(AdminClientConfig.REQUEST_TIMEOUT_MS_CONFIG, TIMEOUT_MS);
    config.put(AdminClientConfig.DEFAULT_API_TIMEOUT_MS_CONFIG, TIMEOUT_MS);
    this.admin = Admin.create(ClientDefaults.applyTo(config));
  }

  List<KafkaStatus.SourcePartition> partitions(
      String operatorUid, String operatorName, KafkaSourceEndpoint endpoint) {
    Map<TopicPartition, OffsetAndMetadata> committed =
        await(
            admin.listConsumerGroupOffsets(endpoint.groupId()).partitionsToOffsetAndMetadata(),
            "reading the offsets of group " + endpoint.groupId());
    List<TopicPartition> partitions = new ArrayList<>();
    if (!endpoint.topics().isEmpty()) {
      Map<String, TopicDescription> topics =
          await(admin.describeTopics(endpoint.topics()).allTopicNames(), "describing topics");
      topics
          .values()
          .forEach(
              topic ->
                  topic
                      .partitions()
                      .forEach(
                          info ->
                              partitions.add(new TopicPartition(topic.name(), info.partition()))));
    } else {
      partitions.addAll(committed.keySet());
    }
    Map<TopicPartition, OffsetSpec> latest = new HashMap<>();
    partitions.forEach(partition -> latest.put(partition, OffsetSpec.latest()));
    var ends =
        await(
            admin.listOffsets(latest, new ListOffsetsOptions(IsolationLevel.READ_COMMITTED)).all(),
            "reading end offsets");
    List<KafkaStatus.SourcePartition> result = new ArrayList<>();
    partitions.sort(
        java.util.Comparator.comparing(TopicPartition::topic)
            .thenComparingInt(TopicPartition::partition));
    for (TopicPartition partition : partitions) {
      OffsetAndMetadata position = committed.get(partition);
      long end = ends.containsKey(partition) ? ends.get(partition).offset() : -1;
      long at = position == null ? -1 : position.offset();
      result.add(
          new KafkaStatus.SourcePartition(
              operatorUid,
              operatorName,
              endpoint.groupId(),
              partition.topic(),
              partition.partition(),
              at,
              end,
              end < 0 ? 0 : end - Math.max(0, at)));
    }
    return result;
  }

  private static <T> T await(org.apache.kafka.common.KafkaFuture<T> future, String what) {
    try {
      return future.get(TIMEOUT_MS, TimeUnit.MILLISECONDS);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new KafkaException("Interrupted while " + what, e);
    } catch (ExecutionException e) {
      throw new KafkaException(what + " failed: " + e.getCause().getMessage(), e.getCause());
    } catch (TimeoutException e) {
      throw new KafkaException(what + " took longer than " + TIMEOUT_MS + " ms", e);
    }
  }

  @Override
  public void close() {
    admin.close(Duration.ofSeconds(2));
  }
}
