package io.weir.runtime.checkpoint;

import io.weir.runtime.execution.CollectSink;
import java.util.Map;
import java.util.TreeMap;

/**
 * The counts a job of {@link KeyCounter}s committed, and the counts they must equal: the same ids
 * counted by a plain loop.
 */
final class KeyCounts {
  private KeyCounts() {}

  /** Each key's highest count the job emitted into the collect sink {@code sink}. */
  static Map<Long, Long> committed(String sink) {
    Map<Long, Long> counts = new TreeMap<>();
    for (long[] count : CollectSink.<long[]>results(sink)) {
      counts.merge(count[0], count[1], Math::max);
    }
    return counts;
  }

  /** The ids {@code 0 .. records-1}, counted by {@code id % keys}. */
  static Map<Long, Long> byPlainLoop(long records, int keys) {
    Map<Long, Long> counts = new TreeMap<>();
    for (long id = 0; id < records; id++) {
      counts.merge(id % keys, 1L, Long::sum);
    }
    return counts;
  }
}
