package io.weir.kafka.source;

import java.io.Serializable;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;

/**
 * What a {@link KafkaSplitEnumerator} keeps in a checkpoint: the partitions it assigned (each in a
 * reader's state of the same checkpoint) and those it found but had not assigned yet, with the
 * offset each starts at. A partition in neither was created after the checkpoint.
 *
 * @param assigned partitions as {@code topic-partition}, sorted
 * @param unassigned partitions found and not yet assigned, with their start offsets
 */
record KafkaEnumeratorState(Set<String> assigned, List<PartitionOffset> unassigned)
    implements Serializable {
  KafkaEnumeratorState {
    assigned = new TreeSet<>(assigned);
    unassigned = List.copyOf(unassigned);
  }
}
