package io.weir.kafka.source;

import java.io.Serializable;
import java.util.Map;
import java.util.TreeMap;

/**
 * The topics one source subtask knew at a checkpoint, each with the topic id the brokers gave it:
 * what a Kafka source keeps beside its partitions' offsets, one element per subtask in a union list
 * state, so that every subtask of a restored (also rescaled) job sees all of them. Its presence
 * says that the checkpoint recorded what the source had discovered: a partition without an offset
 * in such a checkpoint was added after it. A checkpoint written before the source kept it has none.
 *
 * @param topicIds topic name to topic id ({@code Uuid} as text), sorted by name
 */
record DiscoveredTopics(Map<String, String> topicIds) implements Serializable {
  DiscoveredTopics {
    topicIds = new TreeMap<>(topicIds);
  }
}
