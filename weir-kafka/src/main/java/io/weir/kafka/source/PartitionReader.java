package io.weir.kafka.source;

import io.weir.api.datastream.SuppressRestartsException;
import io.weir.api.functions.RuntimeContext;
import io.weir.kafka.ClientDefaults;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.OptionalLong;
import java.util.Properties;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.regex.Pattern;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.clients.consumer.OffsetAndMetadata;
import org.apache.kafka.clients.consumer.OffsetAndTimestamp;
import org.apache.kafka.common.PartitionInfo;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.errors.TimeoutException;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The reading consumer of one source subtask: finds this subtask's partitions (also ones created
 * later), decides where each starts, and knows where a bounded source ends. Assigned on the task's
 * thread before the reader starts; used on the fetcher's thread from then on.
 */
final class PartitionReader implements AutoCloseable {
  private static final Logger LOG = LoggerFactory.getLogger(PartitionReader.class);
  private static final Duration CLOSE_TIMEOUT = Duration.ofSeconds(1);
  private static final Duration DISCOVERY_TIMEOUT = Duration.ofSeconds(15);

  private final KafkaSourceConfig<?> config;
  private final int subtask;
  private final int parallelism;
  private final KafkaConsumer<byte[], byte[]> consumer;
  private final Set<TopicPartition> assigned = new HashSet<>();
  private final Map<TopicPartition, Long> endOffsets = new HashMap<>();
  private RestoredPositions restored = RestoredPositions.none();
  // Topic ids asked for at a start that has none to check; recorded once they arrive.
  private CompletableFuture<Map<String, String>> startIds;
  private long nextDiscovery;

  PartitionReader(KafkaSourceConfig<?> config, RuntimeContext context) {
    this.config = config;
    this.subtask = context.subtaskIndex();
    this.parallelism = context.parallelism();
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
    properties.putIfAbsent(
        ConsumerConfig.CLIENT_ID_CONFIG,
        "weir-" + context.jobName() + "-" + context.operatorName() + "-" + subtask);
    properties.put(ConsumerConfig.KEY_DESERIALIZER_CLASS_CONFIG, ByteArrayDeserializer.class);
    properties.put(ConsumerConfig.VALUE_DESERIALIZER_CLASS_CONFIG, ByteArrayDeserializer.class);
    this.consumer = new KafkaConsumer<>(ClientDefaults.applyTo(properties));
  }

  KafkaConsumer<byte[], byte[]> consumer() {
    return consumer;
  }

  /**
   * Assigns this subtask's partitions and seeks each to its start: the checkpoint's offset; else,
   * for a partition added after the checkpoint, its earliest offset; else the group's offset; else
   * the configured starting offsets. Checks the restored topic ids first ({@link
   * RestoredPositions#checkTopicIds}) and puts the id of every topic the source reads into {@code
   * topicIds}; when the checkpoint has none to check, they are asked for in the background and put
   * there by {@link #maybeRecordStartIds}. Returns the start offsets.
   *
   * @throws SuppressRestartsException when the brokers cannot be reached within the start timeout,
   *     or a restored topic was re-created and the policy says fail
   */
  Map<TopicPartition, Long> assign(
      RestoredPositions restoredPositions,
      OptionalLong checkpointId,
      Map<String, String> topicIds) {
    List<TopicPartition> listed = list(true);
    if (restoredPositions.topicIds().isEmpty()) {
      // Nothing to check them against (a fresh start, or a checkpoint that has none): they are
      // only recorded for a later restore, and the start need not wait for an admin client.
      startIds = describeInBackground(topicsOf(listed));
      restored = restoredPositions;
    } else {
      topicIds.putAll(describe(topicsOf(listed), true));
      restored =
          restoredPositions.checkTopicIds(topicIds, config.recreatedTopicPolicy(), checkpointId);
    }
    List<TopicPartition> mine = mine(listed);
    Map<TopicPartition, Long> starts = startOffsets(mine);
    consumer.assign(mine);
    starts.forEach(consumer::seek);
    assigned.addAll(mine);
    if (config.bounded()) {
      endOffsets.putAll(consumer.endOffsets(mine));
    }
    nextDiscovery = System.currentTimeMillis() + config.partitionDiscoveryInterval().toMillis();
    return starts;
  }

  /** What the restored checkpoint says, after {@link #assign} checked its topic ids. */
  RestoredPositions restored() {
    return restored;
  }

  /**
   * The topic ids asked for in the background at start, once they arrived (else none). A failed
   * request is not repeated: the next partition discovery asks for every topic whose id is unknown.
   */
  Map<String, String> maybeStartIds() {
    if (startIds == null || !startIds.isDone()) {
      return Map.of();
    }
    Map<String, String> ids = Map.of();
    try {
      ids = startIds.join();
    } catch (CompletionException e) {
      LOG.warn(
          "Cannot learn the topic ids of {}: {}; the next partition discovery asks again",
          config.describeTopics(),
          e.getCause().toString());
    }
    startIds = null;
    return ids;
  }

  /** What a look for new partitions found: where each starts, and the ids of new topics. */
  record Discovery(Map<TopicPartition, Long> starts, Map<String, String> topicIds) {
    static final Discovery NONE = new Discovery(Map.of(), Map.of());
  }

  /**
   * Partitions of this subtask that appeared since the last look (they start at the earliest, or at
   * a restored offset), and the ids of topics not in {@code knownTopics}.
   */
  Discovery maybeDiscover(Set<String> knownTopics) {
    long now = System.currentTimeMillis();
    if (config.bounded() || now < nextDiscovery) {
      return Discovery.NONE;
    }
    nextDiscovery = now + config.partitionDiscoveryInterval().toMillis();
    List<TopicPartition> listed = list(false);
    Set<String> newTopics = topicsOf(listed);
    newTopics.removeAll(knownTopics);
    Map<String, String> newIds = describe(newTopics, false);
    List<TopicPartition> added = new ArrayList<>();
    for (TopicPartition partition : mine(listed)) {
      if (!assigned.contains(partition)) {
        added.add(partition);
      }
    }
    Map<TopicPartition, Long> starts = new HashMap<>();
    if (!added.isEmpty()) {
      Map<TopicPartition, Long> earliest = consumer.beginningOffsets(added);
      for (TopicPartition partition : added) {
        Long offset = restored.offset(partition);
        starts.put(partition, offset != null ? offset : earliest.get(partition));
      }
      assigned.addAll(added);
      consumer.assign(new ArrayList<>(assigned));
      starts.forEach(consumer::seek);
    }
    return new Discovery(starts, newIds);
  }

  /** A bounded source is done when every partition's position reached its end offset. */
  boolean reachedEnd() {
    for (Map.Entry<TopicPartition, Long> end : endOffsets.entrySet()) {
      if (consumer.position(end.getKey()) < end.getValue()) {
        return false;
      }
    }
    return true;
  }

  /**
   * Every partition of the topics the source reads. At start the brokers get the start timeout to
   * answer, and a job that cannot reach them fails for good; a later look that times out fails the
   * attempt, which restarts.
   */
  private List<TopicPartition> list(boolean atStart) {
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

  private List<TopicPartition> mine(List<TopicPartition> listed) {
    List<TopicPartition> mine = new ArrayList<>();
    for (TopicPartition partition : listed) {
      if (PartitionAssigner.subtaskOf(partition.topic(), partition.partition(), parallelism)
          == subtask) {
        mine.add(partition);
      }
    }
    return mine;
  }

  private Map<String, String> describe(Set<String> topics, boolean atStart) {
    try {
      return TopicIds.describe(config, topics, timeout(atStart));
    } catch (TimeoutException e) {
      throw unreachable(atStart, e);
    }
  }

  private CompletableFuture<Map<String, String>> describeInBackground(Set<String> topics) {
    CompletableFuture<Map<String, String>> ids = new CompletableFuture<>();
    Thread describer =
        new Thread(
            () -> {
              try {
                ids.complete(TopicIds.describe(config, topics, DISCOVERY_TIMEOUT));
              } catch (RuntimeException e) {
                ids.completeExceptionally(e);
              }
            },
            "weir kafka source topic ids");
    describer.setDaemon(true);
    describer.start();
    return ids;
  }

  private Duration timeout(boolean atStart) {
    return atStart ? config.startTimeout() : DISCOVERY_TIMEOUT;
  }

  private static Set<String> topicsOf(List<TopicPartition> partitions) {
    Set<String> topics = new HashSet<>();
    partitions.forEach(partition -> topics.add(partition.topic()));
    return topics;
  }

  private RuntimeException unreachable(boolean atStart, TimeoutException e) {
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

  private Map<TopicPartition, Long> startOffsets(List<TopicPartition> partitions) {
    Map<TopicPartition, Long> starts = new HashMap<>();
    Set<TopicPartition> added = new HashSet<>();
    Set<TopicPartition> unknown = new HashSet<>();
    for (TopicPartition partition : partitions) {
      Long offset = restored.offset(partition);
      if (offset != null) {
        starts.put(partition, offset);
      } else if (restored.addedSince(partition)) {
        added.add(partition);
      } else {
        unknown.add(partition);
      }
    }
    if (!added.isEmpty()) {
      // As discovery would have started them, had the job lived to discover them.
      starts.putAll(consumer.beginningOffsets(added));
    }
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

  /**
   * Closes the consumer on a thread of its own. A cancelled task's thread is interrupted, possibly
   * while it closes, and the consumer reports an interrupted close as an error with a stack trace
   * on every failover; the closing thread is never interrupted. An interrupted caller does not wait
   * for the close to end.
   */
  @Override
  public void close() {
    Thread closer = new Thread(() -> consumer.close(CLOSE_TIMEOUT), "weir kafka source close");
    closer.setDaemon(true);
    closer.start();
    try {
      closer.join();
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
  }
}
