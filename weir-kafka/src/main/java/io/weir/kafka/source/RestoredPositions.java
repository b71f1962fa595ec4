package io.weir.kafka.source;

import io.weir.api.datastream.SuppressRestartsException;
import java.util.HashMap;
import java.util.HashSet;
import java.util.Map;
import java.util.OptionalLong;
import java.util.Set;
import org.apache.kafka.common.TopicPartition;

/**
 * What a restored checkpoint says about where a Kafka source's partitions start: the offset of each
 * partition the source knew, the ids of the topics it knew, and so which partitions were added
 * after it. Read from the union list states, so every subtask of a rescaled job sees the whole of
 * it. Immutable.
 *
 * <p>A partition the source knew always has an offset in the checkpoint, also before its first
 * record: the source resolves each partition's start (a {@code latest} start included) before the
 * first checkpoint, and each discovered partition's before the next one, under the checkpoint lock.
 * So a partition without an offset was added after the checkpoint and starts at its earliest
 * offset, not at the configured start, which would skip what was written to it meanwhile.
 */
final class RestoredPositions {
  private static final RestoredPositions NONE =
      new RestoredPositions(Map.of(), Map.of(), Set.of(), false);

  private final Map<TopicPartition, Long> offsets;
  private final Map<String, String> topicIds;
  private final Set<String> knownTopics;
  private final boolean recordedDiscovery;

  private RestoredPositions(
      Map<TopicPartition, Long> offsets,
      Map<String, String> topicIds,
      Set<String> knownTopics,
      boolean recordedDiscovery) {
    this.offsets = Map.copyOf(offsets);
    this.topicIds = Map.copyOf(topicIds);
    this.knownTopics = Set.copyOf(knownTopics);
    this.recordedDiscovery = recordedDiscovery;
  }

  /** A fresh start: nothing restored, every partition starts where the configuration says. */
  static RestoredPositions none() {
    return NONE;
  }

  /**
   * The union of what every subtask of the checkpoint recorded. A checkpoint written before the
   * source kept its discovered topics has none: then the topics that have offsets in it are the
   * ones it knew, and it has no topic ids to check.
   */
  static RestoredPositions of(
      Iterable<PartitionOffset> restoredOffsets, Iterable<DiscoveredTopics> discovered) {
    Map<TopicPartition, Long> offsets = new HashMap<>();
    Set<String> known = new HashSet<>();
    for (PartitionOffset offset : restoredOffsets) {
      offsets.put(new TopicPartition(offset.topic(), offset.partition()), offset.offset());
      known.add(offset.topic());
    }
    Map<String, String> ids = new HashMap<>();
    boolean recorded = false;
    for (DiscoveredTopics topics : discovered) {
      recorded = true;
      topics.topicIds().forEach(ids::putIfAbsent);
    }
    known.addAll(ids.keySet());
    return new RestoredPositions(offsets, ids, known, recorded);
  }

  /** The offset the checkpoint holds for {@code partition}, or null. */
  Long offset(TopicPartition partition) {
    return offsets.get(partition);
  }

  Map<TopicPartition, Long> offsets() {
    return offsets;
  }

  /** The topic ids the checkpoint recorded, by topic name. */
  Map<String, String> topicIds() {
    return topicIds;
  }

  /**
   * Whether {@code partition} was added after the checkpoint: it has no offset in it, and the
   * checkpoint recorded what the source had discovered (or, written before it did, knew the topic).
   * A partition of a topic an old checkpoint did not know is not known to be new.
   */
  boolean addedSince(TopicPartition partition) {
    if (offsets.containsKey(partition)) {
      return false;
    }
    return recordedDiscovery || knownTopics.contains(partition.topic());
  }

  /**
   * Checks the recorded topic ids against {@code currentIds}: a topic whose id changed was deleted
   * and created again since the checkpoint, and its offsets belong to the old log. Under {@code
   * EARLIEST} such a topic's offsets are forgotten, so that its partitions count as added since and
   * start at the earliest offset.
   *
   * @throws SuppressRestartsException under {@code FAIL}, naming the topic and both ids: restarting
   *     would meet the same topic
   */
  RestoredPositions checkTopicIds(
      Map<String, String> currentIds, RecreatedTopicPolicy policy, OptionalLong checkpointId) {
    Set<String> recreated = new HashSet<>();
    for (Map.Entry<String, String> recorded : topicIds.entrySet()) {
      String topic = recorded.getKey();
      String now = currentIds.get(topic);
      if (now == null || now.equals(recorded.getValue())) {
        continue;
      }
      if (policy == RecreatedTopicPolicy.FAIL) {
        throw new SuppressRestartsException(
            describeRecreated(topic, recorded.getValue(), now, checkpointId), null);
      }
      recreated.add(topic);
    }
    if (recreated.isEmpty()) {
      return this;
    }
    Map<TopicPartition, Long> kept = new HashMap<>(offsets);
    kept.keySet().removeIf(partition -> recreated.contains(partition.topic()));
    Map<String, String> ids = new HashMap<>(topicIds);
    ids.keySet().removeAll(recreated);
    return new RestoredPositions(kept, ids, knownTopics, recordedDiscovery);
  }

  private static String describeRecreated(
      String topic, String recordedId, String currentId, OptionalLong checkpointId) {
    String checkpoint =
        checkpointId.isPresent() ? "checkpoint " + checkpointId.getAsLong() : "the checkpoint";
    return "Topic '"
        + topic
        + "' was deleted and created again since "
        + checkpoint
        + " (topic id "
        + recordedId
        + " then, "
        + currentId
        + " now), so its offsets point into a log that is gone; to read the new topic from its"
        + " earliest offset, use the re-created topic policy EARLIEST (--on-recreated-topic"
        + " earliest)";
  }
}
