package io.weir.api.source;

import io.weir.api.annotation.PublicEvolving;
import java.util.List;
import java.util.concurrent.CompletableFuture;

/**
 * Reads the splits of one source subtask when its task asks. One thread, the task's, calls every
 * method; the reader needs no lock for its positions, because a checkpoint is taken between two
 * calls of {@link #pollNext}, never during one.
 *
 * <p>Order: {@link #pollNext} and {@link #isAvailable} repeatedly, with {@link #snapshotState},
 * {@link #notifyCheckpointComplete} and {@link #notifyCheckpointAborted} between them, then {@link
 * #close} once (also after a failure or a cancel, possibly without any poll). After {@link
 * InputStatus#END_OF_INPUT} nothing but notifications and {@code close} follows; after a
 * stop-with-savepoint's barrier the task stops polling until that savepoint is aborted.
 *
 * <p>Blocking: {@code pollNext} must not wait for input; while it runs, no barrier and no mail can
 * get in. A reader whose input arrives on a thread of its own (a fetcher) hands it over and
 * completes the future of {@link #isAvailable}. An exception from any method but {@code close}
 * fails the task, and the job restores from its latest completed checkpoint.
 */
@PublicEvolving
public interface SourceReader<T, SplitT extends SourceSplit> extends AutoCloseable {
  /**
   * Emits what is at hand into {@code output} (one record or a few; the fewer, the sooner a barrier
   * gets in) and says whether more is.
   */
  InputStatus pollNext(ReaderOutput<T> output) throws Exception;

  /**
   * Completes when {@link #pollNext} has something again. Asked after {@link
   * InputStatus#NOTHING_AVAILABLE}; may be completed from any thread, and a completed future is
   * returned while input is at hand. The task waits for it or for mail, whichever comes first.
   */
  CompletableFuture<Void> isAvailable();

  /**
   * The reader's splits with the position of the next record each would emit: exactly the records
   * emitted so far are before them. Called at a checkpoint's barrier, before the barrier goes
   * downstream.
   */
  List<SplitT> snapshotState(long checkpointId) throws Exception;

  /**
   * Every task acknowledged checkpoint {@code checkpointId}. Notifications may be skipped or come
   * late; one covers every earlier checkpoint.
   */
  default void notifyCheckpointComplete(long checkpointId) throws Exception {}

  /** Checkpoint {@code checkpointId} will not complete. */
  default void notifyCheckpointAborted(long checkpointId) throws Exception {}

  /**
   * Splits its source's enumerator assigned to this reader, with the position each starts at; only
   * for an {@link EnumeratedSource} whose enumerator runs ({@link
   * SourceReaderContext#splitsFromEnumerator}). Called between polls; the next {@link
   * #snapshotState} includes them. A split the reader already reads (restored from the checkpoint)
   * keeps the reader's position. The list may be empty: the enumerator has no split for the reader
   * now.
   */
  default void addSplits(List<SplitT> splits) throws Exception {
    throw new UnsupportedOperationException(
        getClass().getName() + " does not take splits from an enumerator");
  }

  /**
   * Its source's enumerator assigns this reader no more splits in this attempt ({@link
   * SplitEnumeratorContext#signalNoMoreSplits}); called between polls, after every {@link
   * #addSplits} the enumerator made for it, at most once per attempt. A bounded reader returns
   * {@link InputStatus#END_OF_INPUT} once it was told this and read each of its splits to its end,
   * and so one given no split ends at once; it completes its {@link #isAvailable} future so that
   * the task polls again. A reader that reads on without end may ignore it.
   */
  default void notifyNoMoreSplits() throws Exception {}

  /** Releases what the reader holds; idempotent; called on the task thread. */
  @Override
  void close() throws Exception;
}
