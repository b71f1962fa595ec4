package io.weir.api.checkpoint;

import io.weir.api.annotation.PublicEvolving;

/**
 * Thrown by {@link CheckpointedFunction#snapshotState} when the function cannot take part in this
 * checkpoint now but can go on as it is: the runtime declines the checkpoint (it is aborted, a
 * later one is tried) instead of failing the task. The function must leave its state as it was
 * before the call. Any other exception from {@code snapshotState} fails the task.
 */
@PublicEvolving
public class CheckpointDeclinedException extends RuntimeException {
  private static final long serialVersionUID = 1L;

  /**
   * @param reason one line saying why, for the checkpoint's history and the log
   */
  public CheckpointDeclinedException(String reason) {
    super(reason);
  }
}
