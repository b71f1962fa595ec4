package io.weir.runtime.exchange;

/**
 * Something other than a record that flows between tasks in order with the records. Records are
 * user objects and never implement this (the type is internal to the runtime).
 */
public sealed interface StreamEvent {
  /** Event time of this channel has reached {@code timestamp}. */
  record Watermark(long timestamp) implements StreamEvent {}

  /** The channel holds back event time no longer ({@code idle}) or again (not idle). */
  record WatermarkStatus(boolean idle) implements StreamEvent {}

  /** Everything before this belongs to checkpoint {@code checkpointId}, everything after not. */
  record CheckpointBarrier(long checkpointId, long timestamp) implements StreamEvent {}

  /**
   * Handed out by an input gate whose barriers overtake queued records, ahead of everything queued:
   * the barrier arrived on this batch's channel, queued as the batch numbered {@code sequence}
   * (whose elements before the barrier still precede it). Never sent between tasks.
   */
  record BarrierAnnouncement(CheckpointBarrier barrier, long sequence) implements StreamEvent {}

  /** No more records will come on this channel; barriers still may. */
  record EndOfData() implements StreamEvent {}

  StreamEvent END_OF_DATA = new EndOfData();
  StreamEvent IDLE = new WatermarkStatus(true);
  StreamEvent ACTIVE = new WatermarkStatus(false);
}
