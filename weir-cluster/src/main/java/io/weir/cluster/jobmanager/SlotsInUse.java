package io.weir.cluster.jobmanager;

import io.weir.cluster.rpc.ClientMessages;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/** How many slots of each task manager the running jobs' current attempts use. */
final class SlotsInUse {
  private final Map<String, Integer> byTaskManager = new HashMap<>();

  SlotsInUse(List<ClusterJob> jobs) {
    for (ClusterJob job : jobs) {
      for (String taskManagerId : job.slotOwners()) {
        byTaskManager.merge(taskManagerId, 1, Integer::sum);
      }
    }
  }

  /** The task managers as {@code weir cluster status} lists them, with their slots in use. */
  List<ClientMessages.TaskManagerMember> of(List<RegisteredTaskManager> taskManagers) {
    return taskManagers.stream()
        .map(
            taskManager ->
                new ClientMessages.TaskManagerMember(
                    taskManager.id,
                    taskManager.dataAddress,
                    taskManager.pid,
                    taskManager.slots,
                    Math.min(taskManager.slots, byTaskManager.getOrDefault(taskManager.id, 0))))
        .toList();
  }
}
