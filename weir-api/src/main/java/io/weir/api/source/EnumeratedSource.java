package io.weir.api.source;

import io.weir.api.annotation.PublicEvolving;
import java.io.Serializable;
import java.util.Optional;

/**
 * A {@link ReaderSource} whose splits an enumerator on the job manager discovers and assigns
 * ({@link SplitEnumerator}), instead of each reader finding its own. The readers then get their
 * splits through {@link SourceReader#addSplits}; {@link SourceReaderContext#splitsFromEnumerator}
 * tells them which way the job runs.
 *
 * <p>Contract: {@link #createEnumerator} is called once per attempt on the job manager, on a copy
 * of the function that is never opened, before any reader is created. It must not block on the
 * network (its enumerator's {@code start} schedules that). An exception fails the attempt.
 */
@PublicEvolving
public interface EnumeratedSource<T, SplitT extends SourceSplit, CheckpointT extends Serializable>
    extends ReaderSource<T> {
  /**
   * This attempt's enumerator, or empty when this source's readers find their own splits (a source
   * whose splits are fixed by its configuration, say).
   *
   * @param restored what the enumerator kept in the checkpoint the job restores from, or null on a
   *     fresh start or from a checkpoint written without one
   */
  Optional<SplitEnumerator<SplitT, CheckpointT>> createEnumerator(
      SplitEnumeratorContext<SplitT> context, CheckpointT restored) throws Exception;
}
