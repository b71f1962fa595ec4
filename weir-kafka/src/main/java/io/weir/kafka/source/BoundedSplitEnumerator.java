package io.weir.kafka.source;

import io.weir.api.source.SplitEnumerator;
import io.weir.api.source.SplitEnumeratorContext;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.apache.kafka.common.TopicPartition;

/**
 * Assigns the partitions of a bounded Kafka source, on the job manager: it lists them once, at the
 * job's first start, with the end of each (read committed: the last stable offset), gives each
 * reader the partitions {@link PartitionAssigner} names for it as splits that carry that stopping
 * offset, and then tells the reader it gets no more. A reader ends once it was told so and read
 * every split to its stop; one given no split ends at once.
 *
 * <p>The splits stay in the state, so a restored job (at any parallelism) reads to the ends of its
 * first start, not to those at its restart. A restore from a state without them (an unbounded
 * run's, or none) lists and captures the ends then. A restored job's readers get every split again:
 * a reader keeps the position it restored and takes the split's stop.
 *
 * <p>Start offsets, as the unbounded {@link KafkaSplitEnumerator} resolves them: on a fresh start
 * the group's offsets, else the configured ones; on a restore, a partition the enumerator had not
 * assigned starts where its state says, any other (created after the checkpoint, unless a reader
 * restored it) at its earliest offset.
 */
final class BoundedSplitEnumerator
    implements SplitEnumerator<PartitionOffset, KafkaEnumeratorState> {
  private final KafkaSourceConfig<?> config;
  private final SplitEnumeratorContext<PartitionOffset> context;
  private final KafkaEnumeratorState restored;
  // Every partition with its start and stopping offset, as listed; fixed once captured.
  private final Map<TopicPartition, PartitionOffset> splits = new LinkedHashMap<>();
  private final Set<TopicPartition> assigned = new HashSet<>();

  /**
   * @param restored the enumerator's state in the restored checkpoint, or null
   */
  BoundedSplitEnumerator(
      KafkaSourceConfig<?> config,
      SplitEnumeratorContext<PartitionOffset> context,
      KafkaEnumeratorState restored) {
    this.config = config;
    this.context = context;
    this.restored = restored;
  }

  /** Takes the restored splits, or lists the partitions and captures their ends; may block. */
  @Override
  public void start() {
    if (restored != null && !restored.boundedSplits().isEmpty()) {
      restored.boundedSplits().forEach(split -> splits.put(split.topicPartition(), split));
      return;
    }
    PartitionLookup lookup =
        new PartitionLookup(
            config,
            "weir-bounded-enumerator-"
                + config.describeTopics().replaceAll("[^A-Za-z0-9._-]", "_"));
    try {
      List<TopicPartition> partitions = lookup.list(true);
      Map<TopicPartition, Long> starts = startOffsets(lookup, partitions);
      Map<TopicPartition, Long> ends = lookup.consumer().endOffsets(partitions);
      for (TopicPartition partition : partitions) {
        splits.put(
            partition,
            new PartitionOffset(
                partition.topic(),
                partition.partition(),
                starts.get(partition),
                ends.get(partition)));
      }
    } finally {
      lookup.close(Duration.ofSeconds(1));
    }
  }

  private Map<TopicPartition, Long> startOffsets(
      PartitionLookup lookup, List<TopicPartition> partitions) {
    if (restored == null && context.restoredCheckpointId().isEmpty()) {
      return lookup.groupOrConfiguredStarts(new HashSet<>(partitions));
    }
    Map<TopicPartition, Long> starts = new HashMap<>();
    if (restored != null) {
      restored.unassigned().forEach(split -> starts.put(split.topicPartition(), split.offset()));
    }
    Set<TopicPartition> others = new HashSet<>(partitions);
    others.removeAll(starts.keySet());
    if (!others.isEmpty()) {
      starts.putAll(lookup.consumer().beginningOffsets(others));
    }
    return starts;
  }

  /** Assigns the reader every split of its own (maybe none), then tells it there are no more. */
  @Override
  public void addReader(int subtaskIndex) {
    List<PartitionOffset> own = new ArrayList<>();
    splits.forEach(
        (partition, split) -> {
          if (PartitionAssigner.subtaskOf(
                  partition.topic(), partition.partition(), context.parallelism())
              == subtaskIndex) {
            own.add(split);
          }
        });
    // An empty assignment too: a reader waits for its first before it may be idle.
    context.assignSplits(subtaskIndex, own);
    own.forEach(split -> assigned.add(split.topicPartition()));
    context.signalNoMoreSplits(subtaskIndex);
  }

  @Override
  public KafkaEnumeratorState snapshotState(long checkpointId) {
    Set<String> names = new HashSet<>();
    assigned.forEach(partition -> names.add(partition.toString()));
    List<PartitionOffset> waiting = new ArrayList<>();
    splits.forEach(
        (partition, split) -> {
          if (!assigned.contains(partition)) {
            waiting.add(split);
          }
        });
    return new KafkaEnumeratorState(names, waiting, new ArrayList<>(splits.values()));
  }

  @Override
  public void close() {}
}
