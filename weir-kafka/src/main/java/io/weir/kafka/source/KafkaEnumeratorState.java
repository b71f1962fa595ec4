package io.weir.kafka.source;

import java.io.Serializable;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;

/**
 * What a Kafka source's enumerator keeps in a checkpoint: the partitions it assigned (each in a
 * reader's state of the same checkpoint) and those it found but had not assigned yet, with the
 * offset each starts at. A partition in neither was created after the checkpoint. A bounded
 * source's enumerator ({@link BoundedSplitEnumerator}) also keeps every partition it read with its
 * stopping offset, so that a restored job reads to the ends of its first start; either enumerator
 * can restore the other's state.
 *
 * @param assigned partitions as {@code topic-partition}, sorted
 * @param unassigned partitions found and not yet assigned, with their start offsets
 * @param boundedSplits every partition of a bounded source, with its start and stopping offset;
 *     empty for an unbounded source (and in a state written before it was kept)
 */
record KafkaEnumeratorState(
    Set<String> assigned, List<PartitionOffset> unassigned, List<PartitionOffset> boundedSplits)
    implements Serializable {
  KafkaEnumeratorState {
    assigned = new TreeSet<>(assigned);
    unassigned = List.copyOf(unassigned);
    boundedSplits = boundedSplits == null ? List.of() : List.copyOf(boundedSplits);
  }

  /** The state of an unbounded source's enumerator. */
  KafkaEnumeratorState(Set<String> assigned, List<PartitionOffset> unassigned) {
    this(assigned, unassigned, List.of());
  }
}
