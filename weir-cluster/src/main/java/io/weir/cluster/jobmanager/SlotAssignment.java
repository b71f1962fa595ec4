package io.weir.cluster.jobmanager;

import io.weir.cluster.rpc.ControlMessages.SubtaskPlacement;
import io.weir.runtime.graph.JobGraph;
import io.weir.runtime.graph.JobVertex;
import java.util.ArrayList;
import java.util.List;

/**
 * Places subtasks into slots as Flink's slot sharing does: slot {@code i} runs subtask {@code i} of
 * every task, so a job needs as many slots as its highest parallelism. Slots are taken from the
 * task managers in turn, so a job spreads over all of them.
 */
final class SlotAssignment {
  private SlotAssignment() {}

  static int slotsNeeded(JobGraph graph) {
    return graph.vertices().stream().mapToInt(JobVertex::parallelism).max().orElse(1);
  }

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

  static List<SubtaskPlacement> placements(JobGraph graph, List<RegisteredTaskManager> slots) {
    List<SubtaskPlacement> placements = new ArrayList<>();
    for (JobVertex vertex : graph.vertices()) {
      for (int i = 0; i < vertex.parallelism(); i++) {
        RegisteredTaskManager slot = slots.get(i);
        placements.add(new SubtaskPlacement(vertex.id(), i, slot.id, slot.dataAddress));
      }
    }
    return placements;
  }
}
