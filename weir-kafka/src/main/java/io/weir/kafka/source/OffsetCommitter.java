package io.weir.kafka.source;

import io.weir.kafka.BesideStart;
import io.weir.kafka.ClientDefaults;
import io.weir.runtime.failpoint.FailpointNames;
import io.weir.runtime.failpoint.Failpoints;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.Set;
import java.util.TreeMap;
import java.util.concurrent.CompletableFuture;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.clients.consumer.OffsetAndMetadata;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Commits the offsets of completed checkpoints to the consumer group, right when the checkpoint is
 * notified — with a consumer of its own, so the commit never waits for the reading consumer's next
 * poll. Offsets of a checkpoint whose notification was lost are committed with a later one. Used on
 * the source task's mailbox thread only, or by one job-level call of {@link #advanceTo}.
 */
final class OffsetCommitter implements AutoCloseable {
  private static final Logger LOG = LoggerFactory.getLogger(OffsetCommitter.class);

  private final Properties properties;
  private final Failpoints failpoints;
  private final TreeMap<Long, Map<TopicPartition, Long>> pending = new TreeMap<>();
  private KafkaConsumer<byte[], byte[]> consumer;
  private CompletableFuture<Void> warmUp = CompletableFuture.completedFuture(null);

  OffsetCommitter(
      String bootstrapServers, String groupId, Map<String, String> extra, Failpoints failpoints) {
    this.failpoints = failpoints;
    properties = new Properties();
    properties.putAll(extra);
    properties.put(ConsumerConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrapServers);
    properties.put(ConsumerConfig.GROUP_ID_CONFIG, groupId);
    properties.put(ConsumerConfig.ENABLE_AUTO_COMMIT_CONFIG, "false");
    properties.put(ConsumerConfig.KEY_DESERIALIZER_CLASS_CONFIG, ByteArrayDeserializer.class);
    properties.put(ConsumerConfig.VALUE_DESERIALIZER_CLASS_CONFIG, ByteArrayDeserializer.class);
    ClientDefaults.applyTo(properties);
  }

  /**
   * Starts the committing consumer and finds the group's coordinator in the background, so that the
   * first commit after a checkpoint is as prompt as the later ones (a lookup can take a second)
   * while the source reads from the start; a failure here is retried by the first commit.
   */
  void warmUpInBackground() {
    warmUp =
        BesideStart.run(
            "offset committer start",
            () -> {
              try {
                consumer().committed(Set.of(), Duration.ofSeconds(5));
              } catch (RuntimeException e) {
                LOG.debug("Could not reach the group coordinator yet: {}", e.toString());
              }
              return null;
            });
  }

  private KafkaConsumer<byte[], byte[]> consumer() {
    if (consumer == null) {
      consumer = new KafkaConsumer<>(properties);
    }
    return consumer;
  }

  /** The consumer is not thread-safe: the mailbox thread uses it only after the warm-up ended. */
  private void awaitWarmUp() {
    warmUp.join();
  }

  void checkpointTaken(long checkpointId, Map<TopicPartition, Long> offsets) {
    pending.put(checkpointId, new HashMap<>(offsets));
  }

  /** Commits the offsets of the newest checkpoint up to {@code checkpointId}. */
  void checkpointComplete(long checkpointId) {
    Map.Entry<Long, Map<TopicPartition, Long>> entry = pending.floorEntry(checkpointId);
    if (entry == null) {
      return;
    }
    Map<TopicPartition, OffsetAndMetadata> offsets = new HashMap<>();
    entry.getValue().forEach((tp, offset) -> offsets.put(tp, new OffsetAndMetadata(offset)));
    pending.headMap(checkpointId, true).clear();
    if (offsets.isEmpty()) {
      return;
    }
    failpoints.hit(FailpointNames.SOURCE_OFFSETS_COMMIT_BEFORE);
    awaitWarmUp();
    try {
      consumer().commitSync(offsets, Duration.ofSeconds(10));
    } catch (RuntimeException e) {
      // The checkpoint holds the offsets; the group's copy is only for monitoring and restarts
      // without a checkpoint, so a failed commit does not fail the job (the next one catches up).
      LOG.warn("Could not commit the offsets of checkpoint {}: {}", checkpointId, e.toString());
      return;
    }
    failpoints.hit(FailpointNames.SOURCE_OFFSETS_COMMIT_AFTER);
  }

  /**
   * Moves the group's committed offset of each partition in {@code floor} forward to its offset
   * there, when the group has none or an earlier one; the others stay. For a start from the group's
   * offsets reconciled with a checkpoint, before any subtask reads.
   *
   * @return one phrase per partition moved: {@code orders-1 from 120 to 300}
   */
  List<String> advanceTo(Map<TopicPartition, Long> floor) {
    Map<TopicPartition, OffsetAndMetadata> committed =
        consumer().committed(floor.keySet(), Duration.ofSeconds(10));
    Map<TopicPartition, OffsetAndMetadata> moved = new HashMap<>();
    List<String> phrases = new ArrayList<>();
    floor.entrySet().stream()
        .sorted(Map.Entry.comparingByKey(Comparator.comparing(TopicPartition::toString)))
        .forEach(
            entry -> {
              OffsetAndMetadata group = committed.get(entry.getKey());
              if (group == null || group.offset() < entry.getValue()) {
                moved.put(entry.getKey(), new OffsetAndMetadata(entry.getValue()));
                phrases.add(
                    entry.getKey()
                        + " from "
                        + (group == null ? "none" : Long.toString(group.offset()))
                        + " to "
                        + entry.getValue());
              }
            });
    if (!moved.isEmpty()) {
      consumer().commitSync(moved, Duration.ofSeconds(10));
    }
    return phrases;
  }

  void checkpointAborted(long checkpointId) {
    pending.remove(checkpointId);
  }

  @Override
  public void close() {
    awaitWarmUp();
    if (consumer != null) {
      consumer.close(Duration.ofSeconds(1));
    }
  }
}
