package io.weir.kafka.source;

import io.weir.api.datastream.SuppressRestartsException;
import io.weir.kafka.ClientDefaults;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collection;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.Set;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.regex.Pattern;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.DescribeTopicsOptions;
import org.apache.kafka.clients.admin.ListTopicsOptions;
import org.apache.kafka.clients.admin.TopicDescription;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.clients.consumer.OffsetAndMetadata;
import org.apache.kafka.clients.consumer.OffsetAndTimestamp;
import org.apache.kafka.common.KafkaFuture;
import org.apache.kafka.common.PartitionInfo;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.TopicPartitionInfo;
import org.apache.kafka.common.errors.TimeoutException;
import org.apache.kafka.common.errors.UnknownTopicOrPartitionException;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;

/**
 * What a Kafka source asks the brokers about its partitions, with a consumer of its own: which
 * partitions its topics have, and where one without a checkpointed offset starts. Shared by the
 * readers ({@link PartitionReader}) and the enumerator ({@link KafkaSplitEnumerator}); used on one
 * thread at a time.
 */
final class PartitionLookup {
  static final Duration DISCOVERY_TIMEOUT = Duration.ofSeconds(15);

  private final KafkaSourceConfig<?> config;
  private final KafkaConsumer<byte[], byte[]> consumer;
  // Made at the first listing from the brokers.
  private Admin admin;

  /** A consumer that never subscribes: partitions are assigned to it explicitly. */
  PartitionLookup(KafkaSourceConfig<?> config, String clientId) {
    this.config = config;
    Properties properties = new Properties();
    properties.putAll(config.consumerProperties());
    properties.put(ConsumerConfig.BOOTSTRAP_SERVERS_CONFIG, config.bootstrapServers());
    if (config.groupId() != null) {
      properties.put(ConsumerConfig.GROUP_ID_CONFIG, config.groupId());
    }
    properties.put(ConsumerConfig.ENABLE_AUTO_COMMIT_CONFIG, "false");
    properties.putIfAbsent(ConsumerConfig.ISOLATION_LEVEL_CONFIG, "read_committed");
    // Every position is sought explicitly; one outside the log must reach the out-of-range
    // policy instead of Kafka's silent jump to the end.
    properties.put(ConsumerConfig.AUTO_OFFSET_RESET_CONFIG, "none");
    properties.putIfAbsent(ConsumerConfig.DEFAULT_API_TIMEOUT_MS_CONFIG, "15000");
    properties.putIfAbsent(ConsumerConfig.CLIENT_ID_CONFIG, clientId);
    properties.put(ConsumerConfig.KEY_DESERIALIZER_CLASS_CONFIG, ByteArrayDeserializer.class);
    properties.put(ConsumerConfig.VALUE_DESERIALIZER_CLASS_CONFIG, ByteArrayDeserializer.class);
    this.consumer = new KafkaConsumer<>(ClientDefaults.applyTo(properties));
  }

  KafkaConsumer<byte[], byte[]> consumer() {
    return consumer;
  }

  /**
   * Every partition of the topics the source reads. At start the brokers get the start timeout to
   * answer, and a job that cannot reach them fails for good; a later look that times out fails the
   * attempt, which restarts.
   */
  List<TopicPartition> list(boolean atStart) {
    List<TopicPartition> listed = new ArrayList<>();
    try {
      for (PartitionInfo info : partitions(atStart, timeout(atStart))) {
        listed.add(new TopicPartition(info.topic(), info.partition()));
      }
    } catch (TimeoutException e) {
      throw unreachable(atStart, e);
    }
    return listed;
  }

  /**
   * Every partition of the topics the source reads, asked of the brokers each time: a consumer that
   * never polls keeps the partitions it listed once (its metadata is refreshed by polls), an admin
   * client asks anew. For a caller whose consumer does not poll (the enumerator). Times out as
   * {@link #list} does.
   */
  List<TopicPartition> listFromBrokers(boolean atStart) {
    Duration timeout = timeout(atStart);
    if (admin == null) {
      admin = Admin.create(ClientDefaults.applyTo(config.adminConfig()));
    }
    try {
      Collection<String> topics = config.topics();
      if (config.topicPattern() != null) {
        Pattern pattern = Pattern.compile(config.topicPattern());
        topics =
            admin
                .listTopics(new ListTopicsOptions().timeoutMs((int) timeout.toMillis()))
                .names()
                .get(timeout.toMillis(), TimeUnit.MILLISECONDS)
                .stream()
                .filter(topic -> pattern.matcher(topic).matches())
                .toList();
      }
      List<TopicPartition> listed = new ArrayList<>();
      Map<String, KafkaFuture<TopicDescription>> described =
          admin
              .describeTopics(
                  topics, new DescribeTopicsOptions().timeoutMs((int) timeout.toMillis()))
              .topicNameValues();
      for (Map.Entry<String, KafkaFuture<TopicDescription>> topic : described.entrySet()) {
        TopicDescription description = describedOrNull(topic.getValue(), timeout);
        if (description == null) {
          if (atStart && config.topicPattern() == null) {
            throw new IllegalStateException(
                "Topic '" + topic.getKey() + "' does not exist on " + config.bootstrapServers());
          }
          continue;
        }
        for (TopicPartitionInfo partition : description.partitions()) {
          listed.add(new TopicPartition(topic.getKey(), partition.partition()));
        }
      }
      return listed;
    } catch (TimeoutException e) {
      throw unreachable(atStart, e);
    } catch (java.util.concurrent.TimeoutException e) {
      throw unreachable(atStart, new TimeoutException("No topic list within " + timeout, e));
    } catch (ExecutionException e) {
      if (e.getCause() instanceof TimeoutException unanswered) {
        throw unreachable(atStart, unanswered);
      }
      throw new IllegalStateException("Cannot list topics: " + e.getCause(), e.getCause());
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IllegalStateException("Interrupted while listing topics", e);
    }
  }

  /** Null when the topic does not exist. */
  private static TopicDescription describedOrNull(
      KafkaFuture<TopicDescription> description, Duration timeout)
      throws ExecutionException, InterruptedException, java.util.concurrent.TimeoutException {
    try {
      return description.get(timeout.toMillis(), TimeUnit.MILLISECONDS);
    } catch (ExecutionException e) {
      if (e.getCause() instanceof UnknownTopicOrPartitionException) {
        return null;
      }
      throw e;
    }
  }

  /** Closes the consumer and the admin client, if one was made. */
  void close(Duration timeout) {
    if (admin != null) {
      admin.close(timeout);
    }
    consumer.close(timeout);
  }

  Duration timeout(boolean atStart) {
    return atStart ? config.startTimeout() : DISCOVERY_TIMEOUT;
  }

  RuntimeException unreachable(boolean atStart, TimeoutException e) {
    if (!atStart) {
      return new IllegalStateException(
          "Cannot reach Kafka at "
              + config.bootstrapServers()
              + " to list "
              + config.describeTopics(),
          e);
    }
    // Restarting would wait the same way again: the job fails, in bounded time, once.
    return new SuppressRestartsException(
        "Cannot reach Kafka at "
            + config.bootstrapServers()
            + " within "
            + config.startTimeout().toSeconds()
            + " s to list "
            + config.describeTopics()
            + " (the Kafka source's start timeout)",
        e);
  }

  private List<PartitionInfo> partitions(boolean failOnMissingTopic, Duration timeout) {
    List<PartitionInfo> partitions = new ArrayList<>();
    if (config.topicPattern() != null) {
      Pattern pattern = Pattern.compile(config.topicPattern());
      consumer
          .listTopics(timeout)
          .forEach(
              (topic, infos) -> {
                if (pattern.matcher(topic).matches()) {
                  partitions.addAll(infos);
                }
              });
      return partitions;
    }
    for (String topic : config.topics()) {
      List<PartitionInfo> infos = consumer.partitionsFor(topic, timeout);
      if (infos == null || infos.isEmpty()) {
        if (failOnMissingTopic) {
          throw new IllegalStateException(
              "Topic '" + topic + "' does not exist on " + config.bootstrapServers());
        }
        continue;
      }
      partitions.addAll(infos);
    }
    return partitions;
  }

  /**
   * Where partitions without a checkpointed offset start on a fresh start: the group's committed
   * offset, else the configured starting offsets.
   */
  Map<TopicPartition, Long> groupOrConfiguredStarts(Set<TopicPartition> partitions) {
    Map<TopicPartition, Long> starts = new HashMap<>();
    Set<TopicPartition> unknown = new HashSet<>(partitions);
    if (!unknown.isEmpty() && config.groupId() != null) {
      Map<TopicPartition, OffsetAndMetadata> committed = consumer.committed(unknown);
      committed.forEach(
          (partition, offset) -> {
            if (offset != null) {
              starts.put(partition, offset.offset());
              unknown.remove(partition);
            }
          });
    }
    if (!unknown.isEmpty()) {
      starts.putAll(configuredStarts(unknown));
    }
    return starts;
  }

  private Map<TopicPartition, Long> configuredStarts(Set<TopicPartition> partitions) {
    return switch (config.startingOffsets()) {
      case EARLIEST -> consumer.beginningOffsets(partitions);
      case LATEST -> consumer.endOffsets(partitions);
      case TIMESTAMP -> {
        Map<TopicPartition, Long> query = new HashMap<>();
        partitions.forEach(p -> query.put(p, config.startingTimestamp()));
        Map<TopicPartition, OffsetAndTimestamp> found = consumer.offsetsForTimes(query);
        Map<TopicPartition, Long> ends = consumer.endOffsets(partitions);
        Map<TopicPartition, Long> starts = new HashMap<>();
        for (TopicPartition partition : partitions) {
          OffsetAndTimestamp hit = found.get(partition);
          starts.put(partition, hit != null ? hit.offset() : ends.get(partition));
        }
        yield starts;
      }
    };
  }
}
