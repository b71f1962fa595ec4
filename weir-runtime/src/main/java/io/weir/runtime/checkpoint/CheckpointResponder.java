package io.weir.runtime.checkpoint;

/**
 * How a subtask answers a checkpoint: an acknowledgement once its state is durable, or a decline.
 * Called from the subtask's asynchronous snapshot thread or its task thread; thread safe.
 */
public interface CheckpointResponder {
  void acknowledge(long checkpointId, String taskId, int subtaskIndex, StateHandle state);

  void decline(long checkpointId, String taskId, int subtaskIndex, Throwable cause);
}
