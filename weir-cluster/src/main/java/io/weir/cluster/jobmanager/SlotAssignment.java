package io.weir.cluster.jobmanager;

import java.util.ArrayList;
import java.util.List;

/**
 * Places subtasks into slots as Flink's slot sharing does: slot {@code i} runs subtask {@code i} of
 * every task, so a job needs as many slots as its highest parallelism. Slots are taken from the
 * task managers in turn, so a job spreads over all of them.
 */
final class SlotAssignment {
  private SlotAssignment() {}

  /** The task manager of each slot, or null when the task managers have too few slots. */
  static List<RegisteredTaskManager> slots(List<RegisteredTaskManager> taskManagers, int needed) {
    List<RegisteredTaskManager> slots = new ArrayList<>();
    int[] used = new int[taskManagers.size()];
    boolean progress = true;
    while (slots.size() < needed && progress) {
      progress = false;
      for (int i = 0; i < taskManagers.size() && slots.size() < needed; i++) {
        if (used[i] < taskManagers.get(i).slots) {
          used[i]++;
          slots.add(taskManagers.get(i));
          progress = true;
        }
      }
    }
    return slots.size() == needed ? slots : null;
  }
}
