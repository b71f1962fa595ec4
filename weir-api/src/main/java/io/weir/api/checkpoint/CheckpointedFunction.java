package io.weir.api.checkpoint;

import io.weir.api.annotation.Public;

/**
 * A function with state of its own in checkpoints.
 *
 * <p>{@link #initializeState} is called once on the task thread before {@code open}, on a fresh
 * start and on restore ({@link FunctionInitializationContext#isRestored()}). {@link #snapshotState}
 * is called on the task thread when the checkpoint's barrier passes this function: the function
 * writes its state into the state handles it obtained in {@code initializeState}; the runtime
 * copies it synchronously, so the function may go on changing it after returning. An exception
 * declines the checkpoint.
 */
@Public
public interface CheckpointedFunction {
  void snapshotState(FunctionSnapshotContext context) throws Exception;

  void initializeState(FunctionInitializationContext context) throws Exception;
}
