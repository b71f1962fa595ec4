package io.weir.runtime.task;

import io.weir.runtime.exchange.Batch;
import io.weir.runtime.exchange.StreamEvent.CheckpointBarrier;

/**
 * Decides, from the barriers a task receives on its input channels, when the task takes its
 * snapshot. Called only on the task thread.
 */
interface BarrierHandler {
  /** What the handler asks of the task. */
  interface Actions {
    void triggerCheckpoint(CheckpointBarrier barrier) throws Exception;

    void abortCheckpoint(long checkpointId, String reason) throws Exception;
  }

  /** True while records of this channel must wait for the other channels' barriers. */
  boolean isBlocked(int channel);

  /** Keeps a batch of a blocked channel until the alignment ends. */
  void hold(Batch batch);

  /** A batch released by a finished alignment, to process before new input; or null. */
  Batch nextReleased();

  void onBarrier(int channel, CheckpointBarrier barrier, Actions actions) throws Exception;
}
