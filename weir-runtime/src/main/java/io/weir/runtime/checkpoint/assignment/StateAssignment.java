package io.weir.runtime.checkpoint.assignment;

import io.weir.runtime.checkpoint.CompletedCheckpoint;
import io.weir.runtime.checkpoint.OperatorInfo;
import io.weir.runtime.checkpoint.OperatorState;
import io.weir.runtime.exchange.InFlightRecords;
import io.weir.runtime.state.KeyGroups;
import io.weir.runtime.state.OperatorSubtaskState;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * Decides which state each subtask of an operator restores, when the job may run with another
 * parallelism than the checkpoint was taken with.
 *
 * <ul>
 *   <li>keyed state moves whole key groups: new subtask {@code i} gets exactly the key groups of
 *       {@link KeyGroups#rangeOf(int, int, int)}, so max parallelism must not change;
 *   <li>list state is split evenly ({@linkplain ListStateRedistribution see there});
 *   <li>union list state goes whole to every subtask.
 * </ul>
 *
 * Pure functions: called once per operator by whoever deploys the restored job, on any thread.
 */
public final class StateAssignment {
  private StateAssignment() {}

  /**
   * The state of each subtask {@code 0..operator.parallelism()-1} of {@code operator} (as the job
   * now declares it), restored from {@code checkpoint}; {@link OperatorSubtaskState#EMPTY} for each
   * if the checkpoint has no state for the operator.
   *
   * @throws IllegalStateException if the operator's max parallelism differs from the checkpoint's
   */
  public static List<OperatorSubtaskState> assign(
      OperatorInfo operator, CompletedCheckpoint checkpoint) {
    return assignOperatorState(operator, checkpoint.operators().get(operator.uid()));
  }

  /**
   * Like {@link #assign(OperatorInfo, CompletedCheckpoint)} for one operator's stored state.
   *
   * @param restored the state the checkpoint holds for the operator, or null for none
   */
  public static List<OperatorSubtaskState> assignOperatorState(
      OperatorInfo operator, OperatorState restored) {
    int parallelism = operator.parallelism();
    if (parallelism < 1 || parallelism > operator.maxParallelism()) {
      throw new IllegalStateException(
          "operator "
              + operator.uid()
              + " has parallelism "
              + parallelism
              + " outside 1.."
              + operator.maxParallelism()
              + " (its max parallelism)");
    }
    if (restored == null
        || restored.subtasks().values().stream().allMatch(OperatorSubtaskState::isEmpty)) {
      return Collections.nCopies(parallelism, OperatorSubtaskState.EMPTY);
    }
    requireSameMaxParallelism(operator, restored.operator());
    List<OperatorSubtaskState> oldSubtasks = oldSubtasksInOrder(restored);
    List<Map<Integer, byte[]>> keyGroups = assignKeyGroups(operator, oldSubtasks);
    List<Map<String, List<byte[]>>> lists = assignLists(oldSubtasks, parallelism);
    Map<String, List<byte[]>> unions =
        ListStateRedistribution.concatenate(oldSubtasks, OperatorSubtaskState::unionStates);
    List<OperatorSubtaskState> assigned = new ArrayList<>(parallelism);
    for (int subtask = 0; subtask < parallelism; subtask++) {
      OperatorSubtaskState state =
          new OperatorSubtaskState(lists.get(subtask), unions, keyGroups.get(subtask));
      assigned.add(state.isEmpty() ? OperatorSubtaskState.EMPTY : state);
    }
    return Collections.unmodifiableList(assigned);
  }

  static void requireSameMaxParallelism(OperatorInfo operator, OperatorInfo checkpointed) {
    if (operator.maxParallelism() != checkpointed.maxParallelism()) {
      throw new IllegalStateException(
          "operator "
              + operator.uid()
              + " was checkpointed with max parallelism "
              + checkpointed.maxParallelism()
              + " but the job declares "
              + operator.maxParallelism()
              + "; max parallelism cannot change across a restore");
    }
  }

  /**
   * Operator list states split evenly. Records in flight are not split: at another parallelism
   * every new subtask gets all of them, by old subtask, and replays those that are now its own.
   */
  private static List<Map<String, List<byte[]>>> assignLists(
      List<OperatorSubtaskState> oldSubtasks, int parallelism) {
    if (oldSubtasks.size() == parallelism) {
      return ListStateRedistribution.splitEvenly(
          oldSubtasks, OperatorSubtaskState::listStates, parallelism);
    }
    List<Map<String, List<byte[]>>> oldLists =
        oldSubtasks.stream().map(OperatorSubtaskState::listStates).toList();
    List<Map<String, List<byte[]>>> shares =
        ListStateRedistribution.splitEvenly(
            oldSubtasks, old -> InFlightRecords.withoutInFlight(old.listStates()), parallelism);
    Map<String, List<byte[]>> inFlight = InFlightRecords.forRescaledRestore(oldLists);
    List<Map<String, List<byte[]>>> assigned = new ArrayList<>();
    for (Map<String, List<byte[]>> share : shares) {
      Map<String, List<byte[]>> lists = new TreeMap<>(share);
      lists.putAll(inFlight);
      assigned.add(Collections.unmodifiableMap(lists));
    }
    return assigned;
  }

  /** Old subtasks by index 0..p-1; a missing index (a subtask without state) is empty. */
  private static List<OperatorSubtaskState> oldSubtasksInOrder(OperatorState restored) {
    int oldParallelism =
        Math.max(
            restored.operator().parallelism(),
            restored.subtasks().keySet().stream().mapToInt(index -> index + 1).max().orElse(0));
    List<OperatorSubtaskState> subtasks = new ArrayList<>(oldParallelism);
    for (int index = 0; index < oldParallelism; index++) {
      subtasks.add(restored.subtasks().getOrDefault(index, OperatorSubtaskState.EMPTY));
    }
    return subtasks;
  }

  private static List<Map<Integer, byte[]>> assignKeyGroups(
      OperatorInfo operator, List<OperatorSubtaskState> oldSubtasks) {
    int maxParallelism = operator.maxParallelism();
    List<Map<Integer, byte[]>> assigned = new ArrayList<>();
    for (int subtask = 0; subtask < operator.parallelism(); subtask++) {
      assigned.add(new TreeMap<>());
    }
    for (OperatorSubtaskState old : oldSubtasks) {
      for (Map.Entry<Integer, byte[]> keyGroup : old.keyGroups().entrySet()) {
        int group = keyGroup.getKey();
        if (group < 0 || group >= maxParallelism) {
          throw new IllegalStateException(
              "operator "
                  + operator.uid()
                  + " has state for key group "
                  + group
                  + " outside 0.."
                  + (maxParallelism - 1));
        }
        int target = KeyGroups.subtaskOf(group, maxParallelism, operator.parallelism());
        if (assigned.get(target).put(group, keyGroup.getValue()) != null) {
          throw new IllegalStateException(
              "operator " + operator.uid() + " has key group " + group + " in two subtasks");
        }
      }
    }
    List<Map<Integer, byte[]>> unmodifiable = new ArrayList<>();
    assigned.forEach(map -> unmodifiable.add(Collections.unmodifiableMap(map)));
    return unmodifiable;
  }
}
