package io.weir.runtime.checkpoint.assignment;

import io.weir.runtime.checkpoint.CompletedCheckpoint;
import io.weir.runtime.checkpoint.OperatorInfo;
import io.weir.runtime.checkpoint.OperatorState;
import io.weir.runtime.state.OperatorSubtaskState;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.Map;
import java.util.function.Function;
import java.util.stream.Collectors;

/**
 * Checks, before a restore, that a checkpoint fits the job: its state must not silently vanish
 * because an operator's uid changed, and keyed state must still map onto the same key groups.
 */
public final class CheckpointCompatibility {
  private CheckpointCompatibility() {}

  /**
   * @param jobOperators every operator of the job, with its new parallelism
   * @param allowNonRestoredState whether state of operators absent from the job may be dropped
   * @return the uids of operators whose state the checkpoint holds but the job will not restore
   *     (empty unless {@code allowNonRestoredState}), for the caller to report
   * @throws IllegalStateException naming the checkpoint and the operators, if state would be
   *     dropped without permission or an operator's max parallelism changed
   */
  public static List<String> check(
      CompletedCheckpoint checkpoint,
      Collection<OperatorInfo> jobOperators,
      boolean allowNonRestoredState) {
    Map<String, OperatorInfo> byUid =
        jobOperators.stream().collect(Collectors.toMap(OperatorInfo::uid, Function.identity()));
    List<String> nonRestored = new ArrayList<>();
    for (OperatorState stored : checkpoint.operators().values()) {
      if (stored.subtasks().values().stream().allMatch(OperatorSubtaskState::isEmpty)) {
        continue; // Stateless operators may be renamed or removed freely.
      }
      OperatorInfo operator = byUid.get(stored.operator().uid());
      if (operator == null) {
        nonRestored.add(stored.operator().uid());
      } else {
        StateAssignment.requireSameMaxParallelism(operator, stored.operator());
      }
    }
    if (!nonRestored.isEmpty() && !allowNonRestoredState) {
      throw new IllegalStateException(
          "checkpoint "
              + checkpoint.checkpointId()
              + " at "
              + where(checkpoint)
              + " holds state of operators absent from the job: "
              + nonRestored
              + "; allow non-restored state to drop it");
    }
    return List.copyOf(nonRestored);
  }

  private static String where(CompletedCheckpoint checkpoint) {
    return checkpoint.location() == null ? "memory" : checkpoint.location().toString();
  }
}
