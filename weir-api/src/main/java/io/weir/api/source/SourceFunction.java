package io.weir.api.source;

import io.weir.api.annotation.Public;
import io.weir.api.functions.Function;

/**
 * A source that pushes records into the job. (A source that the task pulls from, with no thread and
 * no lock of its own, is a {@link ReaderSource}.)
 *
 * <p>{@link #run} is called once, on a thread of its own beside the source task's, and returns when
 * the source is exhausted (a bounded source) or after {@link #cancel} was called from another
 * thread. A source that is also a {@link io.weir.api.checkpoint.CheckpointedFunction} must emit a
 * record and advance the position it snapshots while holding {@link
 * SourceContext#getCheckpointLock()}: checkpoints are taken holding that lock, so a snapshot never
 * records a position the source has not emitted up to, and the barrier follows exactly the records
 * before that position.
 */
@Public
public interface SourceFunction<T> extends Function {
  void run(SourceContext<T> context) throws Exception;

  /** Asks {@link #run} to return soon. Called from another thread; must not block. */
  void cancel();

  /** How a source emits records, watermarks and idleness. */
  interface SourceContext<T> {
    void collect(T record);

    void collectWithTimestamp(T record, long timestamp);

    void emitWatermark(long watermark);

    /** Event time need not wait for this subtask until it emits again. */
    void markAsTemporarilyIdle();

    /**
     * Hold this while emitting and changing the snapshotted position. Ask for it before each hold
     * rather than keeping it: a checkpoint waiting for the lock gets it first, so its barrier waits
     * for one hold at most, however soon the source takes the lock again.
     */
    Object getCheckpointLock();
  }
}
