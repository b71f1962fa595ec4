package io.weir.runtime.operators;

/**
 * Who finds a pulled source's splits in an attempt, decided by the job manager when it deploys the
 * attempt: the source's enumerator where the source has one (on every transport), else each reader
 * itself.
 */
public enum SplitDiscovery {
  /** Each reader finds its own splits (and restores those of the checkpoint it keeps). */
  BY_READERS,
  /** The source's enumerator on the job manager assigns them ({@code SourceReader.addSplits}). */
  BY_ENUMERATOR
}
