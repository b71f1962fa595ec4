package io.weir.cli.inspect;

import io.weir.api.sink.TransactionsInCheckpoint;
import io.weir.api.sink.TwoPhaseCommitSinkFunction;
import io.weir.api.state.StateSerializer;
import io.weir.kafka.source.PartitionOffset;
import io.weir.runtime.checkpoint.CompletedCheckpoint;
import io.weir.runtime.checkpoint.OperatorState;
import io.weir.runtime.state.OperatorSubtaskState;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * What a checkpoint holds that decides a recovery: the Kafka sources' offsets and the
 * two-phase-commit sinks' transactions, read from the operators' state.
 */
record CheckpointContents(
    Map<String, Long> sourceOffsets,
    List<String> pendingTransactions,
    List<String> openTransactions) {
  private static final String KAFKA_OFFSETS = "kafka-partition-offsets";

  static CheckpointContents of(CompletedCheckpoint checkpoint) {
    Map<String, Long> offsets = new TreeMap<>();
    List<String> pending = new ArrayList<>();
    List<String> open = new ArrayList<>();
    StateSerializer<PartitionOffset> offsetSerializer = StateSerializer.java();
    for (OperatorState operator : checkpoint.operators().values()) {
      for (OperatorSubtaskState subtask : operator.subtasks().values()) {
        for (byte[] element : subtask.unionStates().getOrDefault(KAFKA_OFFSETS, List.of())) {
          PartitionOffset offset = offsetSerializer.deserialize(element);
          offsets.put(offset.topic() + "-" + offset.partition(), offset.offset());
        }
        for (byte[] element :
            subtask.listStates().getOrDefault(TwoPhaseCommitSinkFunction.STATE_NAME, List.of())) {
          // Operator state keeps each list element Java-serialized; the sink's are byte arrays.
          byte[] encoded = StateSerializer.<byte[]>java().deserialize(element);
          TransactionsInCheckpoint transactions = TransactionsInCheckpoint.decode(encoded);
          transactions
              .pending()
              .forEach((id, transaction) -> pending.add("checkpoint " + id + ": " + transaction));
          open.add(transactions.open());
        }
      }
    }
    return new CheckpointContents(offsets, pending, open);
  }

  long totalOffsets() {
    return sourceOffsets.values().stream().mapToLong(Long::longValue).sum();
  }
}
