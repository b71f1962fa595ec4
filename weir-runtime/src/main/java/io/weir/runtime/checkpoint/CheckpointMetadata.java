package io.weir.runtime.checkpoint;

import java.util.List;

/** What the {@code _metadata} file of a checkpoint says. */
public record CheckpointMetadata(
    long checkpointId,
    long timestamp,
    String jobName,
    boolean savepoint,
    List<OperatorInfo> operators,
    List<SubtaskStateHandle> subtaskStates) {

  /** The file holding one subtask's state: its task (chain) id and subtask index. */
  public record SubtaskStateHandle(String taskId, int subtaskIndex, StateHandle handle) {}
}
