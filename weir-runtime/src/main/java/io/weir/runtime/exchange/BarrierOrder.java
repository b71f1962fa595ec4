package io.weir.runtime.exchange;

/** Where a checkpoint barrier goes when it reaches an input gate. */
public enum BarrierOrder {
  /** Behind every batch queued before it, as it was sent (aligned checkpoints). */
  IN_LINE,
  /**
   * In line, and announced ahead of every queued batch, taken without waiting for room (unaligned
   * checkpoints): the task learns of the barrier while the records before it are still queued.
   */
  OVERTAKING
}
