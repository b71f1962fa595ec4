package io.weir.kafka.source;

import io.weir.api.datastream.SuppressRestartsException;
import java.util.HashMap;
import java.util.Map;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.clients.consumer.OffsetOutOfRangeException;
import org.apache.kafka.common.TopicPartition;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Applies the {@link OutOfRangePolicy} when the reading consumer finds a position outside its
 * partition's log. Used on the fetcher's thread only, between two polls; the count is read from any
 * thread.
 */
final class OutOfRangeOffsets {
  private static final Logger LOG = LoggerFactory.getLogger(OutOfRangeOffsets.class);

  private final OutOfRangePolicy policy;
  private volatile long skippedRecords;

  OutOfRangeOffsets(OutOfRangePolicy policy) {
    this.policy = policy;
  }

  /**
   * Fails (policy {@code FAIL}) or moves each out-of-range partition to its earliest available
   * offset; returns the moves, for the reader's positions (so the next checkpoint holds them).
   *
   * @throws SuppressRestartsException under {@code FAIL}: restarting would meet the same offset
   */
  Map<TopicPartition, Long> handle(
      OffsetOutOfRangeException outOfRange, KafkaConsumer<byte[], byte[]> consumer) {
    Map<TopicPartition, Long> moves = new HashMap<>();
    Map<TopicPartition, Long> offsets = outOfRange.offsetOutOfRangePartitions();
    Map<TopicPartition, Long> earliest = consumer.beginningOffsets(offsets.keySet());
    for (Map.Entry<TopicPartition, Long> entry : offsets.entrySet()) {
      TopicPartition partition = entry.getKey();
      long offset = entry.getValue();
      long available = earliest.get(partition);
      if (policy == OutOfRangePolicy.FAIL) {
        throw new SuppressRestartsException(describe(partition, offset, available), outOfRange);
      }
      long skipped = Math.max(0, available - offset);
      skippedRecords += skipped;
      LOG.warn(
          "Skipped {} records of {} deleted before they were read: offset {} is out of range,"
              + " resuming at the earliest available offset {} (out-of-range policy EARLIEST)",
          skipped,
          partition,
          offset,
          available);
      consumer.seek(partition, available);
      moves.put(partition, available);
    }
    return moves;
  }

  /** Records skipped because they were gone from the log when the source came to read them. */
  long skippedRecords() {
    return skippedRecords;
  }

  private static String describe(TopicPartition partition, long offset, long earliest) {
    String where =
        offset < earliest
            ? "records before the earliest available offset " + earliest + " were deleted"
            : "the earliest available offset is " + earliest;
    return "Offset "
        + offset
        + " of "
        + partition
        + " is out of range ("
        + where
        + "); to go on from offset "
        + earliest
        + " and skip what is gone, use the out-of-range policy EARLIEST"
        + " (--on-out-of-range earliest)";
  }
}
