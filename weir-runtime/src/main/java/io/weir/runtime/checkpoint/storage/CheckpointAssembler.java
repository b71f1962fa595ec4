package io.weir.runtime.checkpoint.storage;

import io.weir.runtime.checkpoint.CheckpointMetadata;
import io.weir.runtime.checkpoint.CheckpointMetadata.SubtaskStateHandle;
import io.weir.runtime.checkpoint.CompletedCheckpoint;
import io.weir.runtime.checkpoint.OperatorInfo;
import io.weir.runtime.checkpoint.OperatorState;
import io.weir.runtime.state.OperatorSubtaskState;
import io.weir.runtime.state.TaskSnapshot;
import java.nio.file.Path;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.TreeMap;

/**
 * Regroups what subtasks stored (a snapshot per task and subtask, each holding several chained
 * operators) into what a restore needs: per operator, every subtask's share.
 */
final class CheckpointAssembler {
  private CheckpointAssembler() {}

  /** The state of one subtask as it was stored. */
  interface SnapshotSource {
    TaskSnapshot snapshotOf(SubtaskStateHandle handle) throws InvalidCheckpointException;
  }

  /**
   * @param location the directory, or null in memory
   * @throws InvalidCheckpointException when a state names an operator the metadata does not list,
   *     or two files hold the same operator's state for the same subtask
   */
  static CompletedCheckpoint assemble(
      CheckpointMetadata metadata, Path location, String description, SnapshotSource snapshots)
      throws InvalidCheckpointException {
    return new CompletedCheckpoint(
        metadata.checkpointId(),
        metadata.timestamp(),
        metadata.jobName(),
        metadata.savepoint(),
        location,
        operators(metadata, description, snapshots),
        metadata.enumeratorStateBytes());
  }

  /**
   * Every operator's state, by operator uid, in the order of the metadata.
   *
   * @throws InvalidCheckpointException as {@link #assemble}
   */
  static Map<String, OperatorState> operators(
      CheckpointMetadata metadata, String description, SnapshotSource snapshots)
      throws InvalidCheckpointException {
    Map<String, Map<Integer, OperatorSubtaskState>> subtasksByOperator = new LinkedHashMap<>();
    for (OperatorInfo operator : metadata.operators()) {
      subtasksByOperator.put(operator.uid(), new TreeMap<>());
    }
    for (SubtaskStateHandle handle : metadata.subtaskStates()) {
      TaskSnapshot snapshot = snapshots.snapshotOf(handle);
      for (Map.Entry<String, OperatorSubtaskState> operator : snapshot.operators().entrySet()) {
        Map<Integer, OperatorSubtaskState> subtasks = subtasksByOperator.get(operator.getKey());
        if (subtasks == null) {
          throw new InvalidCheckpointException(
              description,
              handle.handle().file()
                  + " holds operator "
                  + operator.getKey()
                  + " absent from "
                  + MetadataFormat.FILE_NAME,
              null);
        }
        if (subtasks.putIfAbsent(handle.subtaskIndex(), operator.getValue()) != null) {
          throw new InvalidCheckpointException(
              description,
              "operator "
                  + operator.getKey()
                  + " has two states for subtask "
                  + handle.subtaskIndex(),
              null);
        }
      }
    }
    Map<String, OperatorState> operators = new LinkedHashMap<>();
    for (OperatorInfo operator : metadata.operators()) {
      operators.put(
          operator.uid(),
          new OperatorState(
              operator, Collections.unmodifiableMap(subtasksByOperator.get(operator.uid()))));
    }
    return Collections.unmodifiableMap(operators);
  }
}
