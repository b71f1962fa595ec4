package io.weir.kafka.sink;

import java.util.Arrays;
import java.util.HashMap;
import java.util.Map;

/**
 * The highest offset the open transaction wrote in each partition of the sink's topic, as the
 * producer's send results give them: what a reader must get past to have read the transaction.
 *
 * <p>Threads: {@link #written} runs in the send callback, on the I/O thread of the producer of the
 * open transaction; {@link #take} on the task thread once the pre-commit's flush returned, which is
 * after every callback of the transaction ran. Only one transaction of a subtask is open at a time,
 * so the two never overlap, and the producer's own hand-offs order them.
 */
final class WrittenOffsets {
  private static final long NONE = -1;

  // By partition; grows when a partition beyond it is written, so the callback allocates nothing
  // per record.
  private long[] highest = new long[0];

  /** Notes that the open transaction wrote {@code offset} in {@code partition}. */
  void written(int partition, long offset) {
    if (partition >= highest.length) {
      int before = highest.length;
      highest = Arrays.copyOf(highest, partition + 1);
      Arrays.fill(highest, before, highest.length, NONE);
    }
    if (offset > highest[partition]) {
      highest[partition] = offset;
    }
  }

  /** The highest offset written in each partition since the last call, by partition. */
  Map<Integer, Long> take() {
    Map<Integer, Long> taken = new HashMap<>();
    for (int partition = 0; partition < highest.length; partition++) {
      if (highest[partition] != NONE) {
        taken.put(partition, highest[partition]);
        highest[partition] = NONE;
      }
    }
    return taken;
  }
}
