package io.weir.runtime.checkpoint.explain;

import io.weir.api.sink.TwoPhaseCommitSinkFunction;
import io.weir.api.source.SourcePosition;
import io.weir.api.state.StateSerializer;
import io.weir.runtime.checkpoint.CompletedCheckpoint;
import io.weir.runtime.checkpoint.OperatorState;
import io.weir.runtime.sink.twophase.TransactionsInCheckpoint;
import io.weir.runtime.state.OperatorSubtaskState;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * What a checkpoint holds that decides a recovery: the sources' positions and the two-phase-commit
 * sinks' transactions, read from the operators' state.
 *
 * @param sourcePositions each source split's next position, by split name
 * @param pendingTransactions pre-committed transactions a restore commits, each with its checkpoint
 * @param openTransactions the transactions open at the barrier, which a restore aborts
 */
public record CheckpointContents(
    Map<String, Long> sourcePositions,
    List<String> pendingTransactions,
    List<String> openTransactions) {

  public CheckpointContents {
    sourcePositions = Collections.unmodifiableMap(new TreeMap<>(sourcePositions));
    pendingTransactions = List.copyOf(pendingTransactions);
    openTransactions = List.copyOf(openTransactions);
  }

  public static CheckpointContents of(CompletedCheckpoint checkpoint) {
    Map<String, Long> positions = new TreeMap<>();
    List<String> pending = new ArrayList<>();
    List<String> open = new ArrayList<>();
    for (OperatorState operator : checkpoint.operators().values()) {
      for (OperatorSubtaskState subtask : operator.subtasks().values()) {
        subtask
            .unionStates()
            .values()
            .forEach(
                elements ->
                    positionsIn(elements).forEach(p -> positions.put(p.split(), p.position())));
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
    return new CheckpointContents(positions, pending, open);
  }

  /** The sum of the sources' positions: for Kafka, the records read before the barrier. */
  public long totalPositions() {
    return sourcePositions.values().stream().mapToLong(Long::longValue).sum();
  }

  /** The source positions {@code operator}'s union states hold, of all its subtasks. */
  public static List<SourcePosition> positionsOf(OperatorState operator) {
    List<SourcePosition> positions = new ArrayList<>();
    for (OperatorSubtaskState subtask : operator.subtasks().values()) {
      subtask.unionStates().values().forEach(elements -> positions.addAll(positionsIn(elements)));
    }
    return positions;
  }

  /**
   * A union state holds source positions when its elements are {@link SourcePosition}s. Other union
   * states are skipped, also those whose element class this process does not have (a user jar's
   * classes on a job manager): they say nothing about where the sources resume.
   */
  private static List<SourcePosition> positionsIn(List<byte[]> elements) {
    List<SourcePosition> positions = new ArrayList<>();
    for (byte[] element : elements) {
      Object decoded;
      try {
        decoded = StateSerializer.java().deserialize(element);
      } catch (RuntimeException unreadable) {
        return List.of();
      }
      if (!(decoded instanceof SourcePosition position)) {
        return List.of();
      }
      positions.add(position);
    }
    return positions;
  }
}
