package io.weir.api.source;

import io.weir.api.annotation.PublicEvolving;
import java.io.Serializable;

/**
 * Discovers a source's splits and assigns each to one reader, on the job manager, for one attempt
 * of the job. Created by {@link EnumeratedSource#createEnumerator}; assigns through its {@link
 * SplitEnumeratorContext}.
 *
 * <p>Threads: the job manager calls the methods one at a time, never two at once (from its
 * enumerator thread, or from the checkpoint coordinator's for {@link #snapshotState}); so the
 * enumerator needs no lock for its own fields. No method but {@link #start} may block on the
 * network: slow work (a listing from a broker) goes into {@link
 * SplitEnumeratorContext#callPeriodically}, whose work runs beside the enumerator and whose handler
 * runs like these methods.
 *
 * <p>Order: {@link #start} once, then {@link #addReader} for each reader that opened (also after
 * the first checkpoints: a reader registers once its task runs), handlers of periodic work and
 * {@link #snapshotState} in any order, then {@link #close} once (also after a failure).
 *
 * <p>Checkpoints: {@link #snapshotState} is taken before the checkpoint's barriers leave the
 * sources, and every assignment made before it reaches its reader before the barrier; so each split
 * the enumerator counts as assigned is in a reader's state of the same checkpoint. A split assigned
 * after it is, in that checkpoint, still the enumerator's: when the job restores from it (after any
 * failure: a failed reader fails the attempt, and every part restores), the enumerator is created
 * from that state and assigns such a split again. A reader may thus be given a split it restored
 * itself; it keeps its own position then.
 *
 * <p>Failure: an exception from any method but {@code close}, or from a periodic handler, fails the
 * attempt, and the job restores from its latest completed checkpoint.
 *
 * @param <SplitT> the splits it assigns
 * @param <CheckpointT> what it keeps in a checkpoint; Java-serialized into the checkpoint's
 *     metadata
 */
@PublicEvolving
public interface SplitEnumerator<SplitT extends SourceSplit, CheckpointT extends Serializable>
    extends AutoCloseable {
  /**
   * Finds the splits there are at the start and schedules later discovery with the context. Runs
   * before the subtasks deploy, so it may block (a first listing); no reader is registered yet.
   * What it finds is assigned as the readers register, before the attempt's first checkpoint.
   */
  void start() throws Exception;

  /**
   * The reader of subtask {@code subtaskIndex} opened and can take splits: assign it those waiting
   * for it, and, if a bounded source has no more for it, say so ({@link
   * SplitEnumeratorContext#signalNoMoreSplits}). Splits may be assigned only to registered readers.
   */
  void addReader(int subtaskIndex) throws Exception;

  /**
   * What a restored enumerator needs: at least the splits not yet assigned, and enough to tell a
   * new split from one assigned before. Must not change the enumerator.
   */
  CheckpointT snapshotState(long checkpointId) throws Exception;

  /** Releases what the enumerator holds; idempotent. */
  @Override
  void close() throws Exception;
}
