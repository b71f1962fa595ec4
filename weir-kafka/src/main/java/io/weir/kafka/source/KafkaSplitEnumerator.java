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
 * Finds the partitions of an unbounded Kafka source and assigns each to one reader, on the job
 * manager: the reader {@link PartitionAssigner} names, the same rule readers apply to the
 * partitions they restore, so a rescaled job's readers and its enumerator agree. On a fresh start
 * the partitions there are start at the group's offsets, else the configured ones; a partition
 * found later (also one created while the job was down: not in the restored state, or any on a
 * restore from a checkpoint without such state) starts at its earliest offset. The start offset is
 * resolved here, when the partition is found, and kept in the state until the partition is
 * assigned, so a {@code latest} start means the same after a restore.
 *
 * <p>Restored partitions are not assigned again: the readers restore them from their own state, and
 * check the restored topic ids there (a re-created topic).
 */
final class KafkaSplitEnumerator implements SplitEnumerator<PartitionOffset, KafkaEnumeratorState> {
  private final KafkaSourceConfig<?> config;
  private final SplitEnumeratorContext<PartitionOffset> context;
  private final boolean fresh;
  private final Set<TopicPartition> assigned = new HashSet<>();
  private final Map<TopicPartition, Long> unassigned = new LinkedHashMap<>();
  private final Set<Integer> readers = new HashSet<>();
  // What the discovery work compares with; replaced on the enumerator's calls, read beside them.
  private volatile Set<TopicPartition> known = Set.of();
  private PartitionLookup lookup;

  /**
   * @param restored the enumerator's state in the restored checkpoint, or null for a fresh start
   */
  KafkaSplitEnumerator(
      KafkaSourceConfig<?> config,
      SplitEnumeratorContext<PartitionOffset> context,
      KafkaEnumeratorState restored) {
    this.config = config;
    this.context = context;
    // A restore without this enumerator's state (a checkpoint of a bounded run, or of a cluster)
    // is no fresh start: the partitions the readers restore keep their offsets, and any other was
    // added after the checkpoint.
    this.fresh = restored == null && context.restoredCheckpointId().isEmpty();
    if (restored != null) {
      for (String partition : restored.assigned()) {
        assigned.add(parse(partition));
      }
      for (PartitionOffset split : restored.unassigned()) {
        unassigned.put(new TopicPartition(split.topic(), split.partition()), split.offset());
      }
    }
  }

  /**
   * Lists the partitions there are and resolves where the new ones start, before the subtasks
   * deploy; then looks for new ones every discovery interval.
   */
  @Override
  public void start() {
    lookup =
        new PartitionLookup(
            config,
            "weir-split-enumerator-" + config.describeTopics().replaceAll("[^A-Za-z0-9._-]", "_"));
    updateKnown();
    addFound(find(true));
    context.callPeriodically(() -> find(false), this::onFound, config.partitionDiscoveryInterval());
  }

  /** On the discovery thread: partitions not known yet, with their start offsets. */
  private Map<TopicPartition, Long> find(boolean atStart) {
    Set<TopicPartition> added = new HashSet<>(lookup.listFromBrokers(atStart));
    added.removeAll(known);
    if (added.isEmpty()) {
      return Map.of();
    }
    if (atStart && fresh) {
      return lookup.groupOrConfiguredStarts(added);
    }
    return new HashMap<>(lookup.consumer().beginningOffsets(added));
  }

  private void onFound(Map<TopicPartition, Long> found, Throwable failure) {
    if (failure != null) {
      throw new IllegalStateException(
          "Cannot look for new partitions of " + config.describeTopics() + ": " + failure, failure);
    }
    addFound(found);
  }

  private void addFound(Map<TopicPartition, Long> found) {
    found.forEach(
        (partition, offset) -> {
          if (!assigned.contains(partition)) {
            unassigned.putIfAbsent(partition, offset);
          }
        });
    updateKnown();
    assignWaiting();
  }

  @Override
  public void addReader(int subtaskIndex) {
    readers.add(subtaskIndex);
    Map<Integer, List<PartitionOffset>> byReader = waitingByReader();
    // An empty assignment too: until its first one a reader holds event time back, since it
    // cannot tell "none yet" from "none of its own" (more readers than partitions).
    byReader.putIfAbsent(subtaskIndex, List.of());
    assign(byReader);
  }

  private void assignWaiting() {
    assign(waitingByReader());
  }

  private Map<Integer, List<PartitionOffset>> waitingByReader() {
    Map<Integer, List<PartitionOffset>> byReader = new HashMap<>();
    unassigned.forEach(
        (partition, offset) -> {
          int reader =
              PartitionAssigner.subtaskOf(
                  partition.topic(), partition.partition(), context.parallelism());
          if (readers.contains(reader)) {
            byReader
                .computeIfAbsent(reader, r -> new ArrayList<>())
                .add(new PartitionOffset(partition.topic(), partition.partition(), offset));
          }
        });
    return byReader;
  }

  private void assign(Map<Integer, List<PartitionOffset>> byReader) {
    byReader.forEach(
        (reader, splits) -> {
          context.assignSplits(reader, splits);
          for (PartitionOffset split : splits) {
            TopicPartition partition = new TopicPartition(split.topic(), split.partition());
            unassigned.remove(partition);
            assigned.add(partition);
          }
        });
  }

  private void updateKnown() {
    Set<TopicPartition> all = new HashSet<>(assigned);
    all.addAll(unassigned.keySet());
    known = Set.copyOf(all);
  }

  @Override
  public KafkaEnumeratorState snapshotState(long checkpointId) {
    Set<String> names = new HashSet<>();
    assigned.forEach(partition -> names.add(partition.toString()));
    List<PartitionOffset> waiting = new ArrayList<>();
    unassigned.forEach(
        (partition, offset) ->
            waiting.add(new PartitionOffset(partition.topic(), partition.partition(), offset)));
    return new KafkaEnumeratorState(names, waiting);
  }

  @Override
  public void close() {
    if (lookup != null) {
      lookup.close(Duration.ofSeconds(1));
    }
  }

  /** {@code topic-partition} as {@link TopicPartition#toString} writes it. */
  private static TopicPartition parse(String partition) {
    int dash = partition.lastIndexOf('-');
    return new TopicPartition(
        partition.substring(0, dash), Integer.parseInt(partition.substring(dash + 1)));
  }
}
