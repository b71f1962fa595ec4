package io.weir.runtime.jobmaster;

import io.weir.runtime.checkpoint.CheckpointCoordinator;
import io.weir.runtime.checkpoint.CheckpointKind;
import io.weir.runtime.gateway.AttemptDeployment;
import io.weir.runtime.gateway.JobManagerGateway;
import io.weir.runtime.gateway.TaskManagerGateway;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;

/**
 * The task managers of one attempt, addressed together: each call goes to every one of them. Also
 * the checkpoint coordinator's way to the subtasks, where a savepoint's directory travels with its
 * trigger (the task managers store its state there instead of the job's checkpoint storage).
 */
final class AttemptTaskManagers implements CheckpointCoordinator.TaskGateway {
  private final Map<String, TaskManagerGateway> byId = new LinkedHashMap<>();
  private final Map<Long, Path> savepointDirectories = new ConcurrentHashMap<>();

  /**
   * @param slots the task manager of each slot; one that has several slots appears repeatedly
   */
  AttemptTaskManagers(List<TaskManagerGateway> slots) {
    slots.forEach(slot -> byId.putIfAbsent(slot.taskManagerId(), slot));
  }

  Set<String> ids() {
    return byId.keySet();
  }

  boolean contains(String taskManagerId) {
    return byId.containsKey(taskManagerId);
  }

  void deploy(AttemptDeployment deployment, JobManagerGateway jobManager) {
    byId.values().forEach(taskManager -> taskManager.deploy(deployment, jobManager));
  }

  void start() {
    byId.values().forEach(TaskManagerGateway::start);
  }

  void terminate() {
    byId.values().forEach(TaskManagerGateway::terminate);
  }

  void cancel() {
    byId.values().forEach(TaskManagerGateway::cancel);
  }

  /**
   * Checkpoint {@code checkpointId}, when it is triggered, is a savepoint into {@code directory}.
   */
  void routeSavepoint(long checkpointId, Path directory) {
    savepointDirectories.put(checkpointId, directory);
  }

  @Override
  public void triggerCheckpoint(long checkpointId, long timestamp, CheckpointKind kind) {
    Path savepointDirectory = savepointDirectories.remove(checkpointId);
    byId.values()
        .forEach(
            taskManager ->
                taskManager.triggerCheckpoint(checkpointId, timestamp, savepointDirectory, kind));
  }

  @Override
  public void notifyCheckpointComplete(long checkpointId) {
    byId.values().forEach(taskManager -> taskManager.notifyCheckpointComplete(checkpointId));
  }

  @Override
  public void notifyCheckpointAborted(long checkpointId) {
    byId.values().forEach(taskManager -> taskManager.notifyCheckpointAborted(checkpointId));
  }
}
