package io.weir.api.source;

import io.weir.api.annotation.PublicEvolving;
import java.time.Duration;
import java.util.List;
import java.util.OptionalLong;
import java.util.concurrent.Callable;
import java.util.function.BiConsumer;

/**
 * What the job manager gives a {@link SplitEnumerator}: the readers' parallelism, a way to assign
 * splits to them, and periodic work. Called from the enumerator's methods and handlers only.
 */
@PublicEvolving
public interface SplitEnumeratorContext<SplitT extends SourceSplit> {
  /** How many readers the source has in this attempt. */
  int parallelism();

  /**
   * The checkpoint or savepoint the job restores from, also one that holds no state of this
   * enumerator (written by a run without it); empty on a fresh start.
   */
  OptionalLong restoredCheckpointId();

  /**
   * Sends {@code splits} to the reader of subtask {@code subtaskIndex}, which must be registered
   * ({@link SplitEnumerator#addReader}). The reader gets them on its task's thread, in the order
   * assigned, before any checkpoint barrier that follows the next {@link
   * SplitEnumerator#snapshotState}. An empty list reaches the reader too: it says the reader has no
   * split for now, as opposed to not having heard from the enumerator yet.
   */
  void assignSplits(int subtaskIndex, List<SplitT> splits);

  /**
   * Tells the reader of subtask {@code subtaskIndex}, which must be registered, that it gets no
   * more splits in this attempt ({@link SourceReader#notifyNoMoreSplits}): a bounded source's
   * reader may then end once it read its splits. It reaches the reader as its assignments do, after
   * every split assigned to it before; no split may be assigned to it after. Not kept in a
   * checkpoint: a restored enumerator signals again when the reader registers.
   */
  void signalNoMoreSplits(int subtaskIndex);

  /**
   * Runs {@code work} every {@code period}, the first time one period from now, until the
   * enumerator closes, beside the enumerator (it may block, it must not touch the enumerator's
   * fields), and hands each result or failure to {@code handler}, which runs as the enumerator's
   * methods do.
   */
  <R> void callPeriodically(Callable<R> work, BiConsumer<R, Throwable> handler, Duration period);
}
