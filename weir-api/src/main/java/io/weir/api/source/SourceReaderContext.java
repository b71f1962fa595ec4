package io.weir.api.source;

import io.weir.api.annotation.PublicEvolving;
import java.util.List;

/** What the task tells a reader it creates. */
@PublicEvolving
public interface SourceReaderContext {
  /** This reader's subtask, from 0. */
  int subtaskIndex();

  /** How many readers the source has. */
  int parallelism();

  /**
   * The splits every reader of the source reported in the restored checkpoint, with their positions
   * (empty on a fresh start). Each reader keeps those assigned to it: after a change of parallelism
   * a split may come back to another reader than the one that read it.
   */
  List<SourceSplit> restoredSplits();

  /**
   * Whether the source's enumerator runs on the job manager and assigns this reader its splits
   * ({@link SourceReader#addSplits}); false for a source without one (or a reader driven without a
   * job manager, as by a test harness): then each reader finds its own splits.
   */
  default boolean splitsFromEnumerator() {
    return false;
  }
}
