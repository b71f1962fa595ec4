package io.weir.runtime.task;

import io.weir.api.source.SourceSplit;
import java.util.List;

/**
 * Splits a source's enumerator assigned to one reader, as they reach its task: opened on the task's
 * thread, as its mail, so that splits that cannot be opened (bytes that do not decode) fail that
 * subtask before the barrier of any later checkpoint. A reader that acknowledged a checkpoint
 * without splits the enumerator counts as assigned in it would never read them after a restore.
 */
@FunctionalInterface
public interface AssignedSplits {
  /**
   * The splits, in the order the enumerator assigned them; called once, on the task's thread.
   *
   * @throws Exception when they cannot be read: the subtask fails, and with it the attempt
   */
  List<SourceSplit> open() throws Exception;

  /** Splits that are at hand already (in one JVM). */
  static AssignedSplits of(List<SourceSplit> splits) {
    List<SourceSplit> copy = List.copyOf(splits);
    return () -> copy;
  }

  /** Splits that never reach their reader: opening them fails the subtask with {@code cause}. */
  static AssignedSplits undeliverable(RuntimeException cause) {
    return () -> {
      throw cause;
    };
  }
}
