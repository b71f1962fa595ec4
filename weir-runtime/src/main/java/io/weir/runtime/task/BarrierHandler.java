package io.weir.runtime.task;

import io.weir.runtime.exchange.Batch;
import io.weir.runtime.exchange.StreamEvent.CheckpointBarrier;
import java.util.List;
import java.util.Map;

/**
 * Decides, from the barriers a task receives on its input channels, when the task takes its
 * snapshot. Called only on the task thread.
 */
interface BarrierHandler {
  /** What the handler asks of the task. */
  interface Actions {
    /** Snapshots the chain, forwards the barrier, stores the state and acknowledges. */
    void triggerCheckpoint(CheckpointBarrier barrier) throws Exception;

    /**
     * Snapshots the chain and forwards the barrier now, ahead of the records still in flight; the
     * checkpoint is stored once {@link #completeWithInFlight} hands over those records.
     *
     * @return false if an operator declined the checkpoint (the task declined it already)
     */
    boolean snapshotAheadOfInFlight(CheckpointBarrier barrier) throws Exception;

    /**
     * Stores the snapshot taken by {@link #snapshotAheadOfInFlight} for the checkpoint together
     * with the records in flight (list states by name) and acknowledges it.
     */
    void completeWithInFlight(long checkpointId, Map<String, List<byte[]>> inFlight, long bytes);

    void abortCheckpoint(long checkpointId, String reason) throws Exception;
  }

  /** True while records of this channel must wait for the other channels' barriers. */
  boolean isBlocked(int channel);

  /**
   * Keeps a batch the task took but does not process now: one of a blocked channel until the
   * alignment ends. Where barriers overtake, also the unprocessed rest of a batch the task stopped
   * between two records to take an announced barrier: it is released next, ahead of what was
   * released before, and counts as in flight, as the gate's queued batches do, for a checkpoint
   * that becomes unaligned before the task processes it.
   */
  void hold(Batch batch);

  /** A batch released by a finished alignment, to process before new input; or null. */
  Batch nextReleased();

  void onBarrier(int channel, CheckpointBarrier barrier, Actions actions) throws Exception;

  /**
   * A barrier arrived on {@code channel} and overtook the batches queued before it; its own batch
   * is number {@code sequence}. Only gates whose barriers overtake announce them.
   */
  default void onAnnouncement(
      int channel, CheckpointBarrier barrier, long sequence, Actions actions) throws Exception {
    throw new IllegalStateException("Barrier " + barrier + " overtook, but alignment is in line");
  }

  /** Called with each batch the task takes from its gate, before it processes it. */
  default void onTaken(Batch batch) {}

  /** Called on every turn of the task's loop: switches an alignment that has waited too long. */
  default void maybeTimeOutAlignment(Actions actions) throws Exception {}
}
