package io.weir.api.source;

import io.weir.api.annotation.PublicEvolving;

/**
 * Where a {@link SourceReader} emits, from inside {@link SourceReader#pollNext} only, on the task's
 * thread. A record goes down the operator chain before the call returns; a failure downstream
 * surfaces as an unchecked exception from the call and fails the task.
 */
@PublicEvolving
public interface ReaderOutput<T> {
  /** Emits a record without an event time of its own. */
  void collect(T record);

  /** Emits a record with its event time (epoch milliseconds). */
  void collect(T record, long timestamp);

  /** Event time of this subtask has reached {@code watermark}. */
  void emitWatermark(long watermark);

  /** Event time need not wait for this subtask until it emits again. */
  void markIdle();
}
