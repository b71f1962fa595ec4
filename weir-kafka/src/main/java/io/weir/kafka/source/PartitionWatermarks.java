package io.weir.kafka.source;

import io.weir.api.eventtime.TimestampAssigner;
import io.weir.api.eventtime.WatermarkGenerator;
import io.weir.api.eventtime.WatermarkOutput;
import io.weir.api.eventtime.WatermarkStrategy;
import java.util.HashMap;
import java.util.Map;
import org.apache.kafka.common.TopicPartition;

/**
 * Event time of one source subtask from per-partition watermark generators (the seed's
 * per-partition extractor): the subtask's watermark is the minimum over its partitions that are not
 * idle. A partition is idle after the strategy's idleness timeout without records. Used only on the
 * source thread.
 */
final class PartitionWatermarks<T> {
  private final WatermarkStrategy<T> strategy;
  private final TimestampAssigner<T> assigner;
  private final long idleTimeoutMillis;
  private final Map<TopicPartition, Partition> partitions = new HashMap<>();

  private final class Partition implements WatermarkOutput {
    final WatermarkGenerator<T> generator = strategy.createWatermarkGenerator();
    long watermark = Long.MIN_VALUE;
    boolean idle;
    long lastRecordMillis;

    @Override
    public void emitWatermark(long newWatermark) {
      watermark = Math.max(watermark, newWatermark);
      idle = false;
    }

    @Override
    public void markIdle() {
      idle = true;
    }
  }

  PartitionWatermarks(WatermarkStrategy<T> strategy) {
    this.strategy = strategy;
    this.assigner = strategy.timestampAssigner();
    this.idleTimeoutMillis =
        strategy.idleTimeout() == null ? Long.MAX_VALUE : strategy.idleTimeout().toMillis();
  }

  void add(TopicPartition partition, long nowMillis) {
    partitions.computeIfAbsent(partition, p -> new Partition()).lastRecordMillis = nowMillis;
  }

  /** The record's event timestamp; feeds the partition's generator. */
  long onRecord(TopicPartition partition, T record, long kafkaTimestamp, long nowMillis) {
    Partition state = partitions.get(partition);
    long timestamp = assigner.extractTimestamp(record, kafkaTimestamp);
    state.idle = false;
    state.lastRecordMillis = nowMillis;
    state.generator.onEvent(record, timestamp, state);
    return timestamp;
  }

  /** Asks every generator for its periodic watermark; returns the combined one, or MIN_VALUE. */
  long onPeriodicEmit(long nowMillis) {
    long min = Long.MAX_VALUE;
    boolean any = false;
    for (Partition state : partitions.values()) {
      state.generator.onPeriodicEmit(state);
      if (idleTimeoutMillis != Long.MAX_VALUE
          && nowMillis - state.lastRecordMillis >= idleTimeoutMillis) {
        state.idle = true;
      }
      if (!state.idle) {
        min = Math.min(min, state.watermark);
        any = true;
      }
    }
    return any ? min : Long.MIN_VALUE;
  }

  /** True when every partition is idle (or there are none). */
  boolean allIdle() {
    return partitions.values().stream().allMatch(p -> p.idle);
  }
}
