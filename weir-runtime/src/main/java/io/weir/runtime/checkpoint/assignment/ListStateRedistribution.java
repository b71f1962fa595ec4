package io.weir.runtime.checkpoint.assignment;

import io.weir.runtime.state.OperatorSubtaskState;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Function;

/** How operator list states move between parallelisms. */
final class ListStateRedistribution {
  private ListStateRedistribution() {}

  /**
   * Per new subtask, its share of each list: with unchanged parallelism every subtask gets back
   * exactly its own elements (a source keeps its partitions); otherwise the elements of all old
   * subtasks, in subtask order, are cut into {@code parallelism} contiguous chunks whose sizes
   * differ by at most one. Empty shares are left out.
   */
  static List<Map<String, List<byte[]>>> splitEvenly(
      List<OperatorSubtaskState> oldSubtasks,
      Function<OperatorSubtaskState, Map<String, List<byte[]>>> lists,
      int parallelism) {
    List<Map<String, List<byte[]>>> shares = new ArrayList<>(parallelism);
    if (oldSubtasks.size() == parallelism) {
      oldSubtasks.forEach(old -> shares.add(lists.apply(old)));
      return shares;
    }
    for (int subtask = 0; subtask < parallelism; subtask++) {
      shares.add(new LinkedHashMap<>());
    }
    concatenate(oldSubtasks, lists)
        .forEach(
            (name, elements) -> {
              int count = elements.size();
              for (int subtask = 0; subtask < parallelism; subtask++) {
                int from = (int) ((long) subtask * count / parallelism);
                int to = (int) ((long) (subtask + 1) * count / parallelism);
                if (from < to) {
                  shares.get(subtask).put(name, List.copyOf(elements.subList(from, to)));
                }
              }
            });
    return shares;
  }

  /** Each list's elements of all old subtasks, in subtask order: what a union list restores. */
  static Map<String, List<byte[]>> concatenate(
      List<OperatorSubtaskState> oldSubtasks,
      Function<OperatorSubtaskState, Map<String, List<byte[]>>> lists) {
    Map<String, List<byte[]>> concatenated = new LinkedHashMap<>();
    for (OperatorSubtaskState old : oldSubtasks) {
      lists
          .apply(old)
          .forEach(
              (name, elements) ->
                  concatenated.computeIfAbsent(name, key -> new ArrayList<>()).addAll(elements));
    }
    concatenated.replaceAll((name, elements) -> Collections.unmodifiableList(elements));
    return Collections.unmodifiableMap(concatenated);
  }
}
