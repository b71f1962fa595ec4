package io.weir.kafka.source;

import static org.assertj.core.api.Assertions.assertThat;

import io.weir.api.eventtime.WatermarkStrategy;
import java.time.Duration;
import org.apache.kafka.common.TopicPartition;
import org.junit.jupiter.api.Test;

/** Per-partition watermarks of a source subtask: the minimum over the partitions not idle. */
class PartitionWatermarksTest {
  static final TopicPartition BUSY = new TopicPartition("foo", 0);
  static final TopicPartition QUIET = new TopicPartition("foo", 1);

  @Test
  void when_onePartitionIsBehind_then_itHoldsTheWatermarkBack() {
    PartitionWatermarks<String> watermarks = watermarks(Duration.ofSeconds(10));
    watermarks.add(BUSY, 0);
    watermarks.add(QUIET, 0);

    watermarks.onRecord(BUSY, "b", 5_000, 0);
    watermarks.onRecord(QUIET, "q", 1_000, 0);

    assertThat(watermarks.onPeriodicEmit(100)).isEqualTo(999);
  }

  @Test
  void when_aPartitionIsIdleLongerThanTheTimeout_then_eventTimeFollowsTheBusyOne() {
    PartitionWatermarks<String> watermarks = watermarks(Duration.ofSeconds(1));
    watermarks.add(BUSY, 0);
    watermarks.add(QUIET, 0);
    watermarks.onRecord(QUIET, "q", 1_000, 0);

    watermarks.onRecord(BUSY, "b", 5_000, 1_500);
    long watermark = watermarks.onPeriodicEmit(1_600);

    assertThat(watermark).isEqualTo(4_999);
    assertThat(watermarks.allIdle()).isFalse();
  }

  @Test
  void when_everyPartitionIsIdle_then_theSubtaskIsIdle() {
    PartitionWatermarks<String> watermarks = watermarks(Duration.ofSeconds(1));
    watermarks.add(BUSY, 0);
    watermarks.add(QUIET, 0);

    assertThat(watermarks.onPeriodicEmit(2_000)).isEqualTo(Long.MIN_VALUE);
    assertThat(watermarks.allIdle()).isTrue();
  }

  private static PartitionWatermarks<String> watermarks(Duration idleness) {
    return new PartitionWatermarks<>(
        WatermarkStrategy.<String>forMonotonousTimestamps()
            .withTimestampAssigner((record, kafkaTimestamp) -> kafkaTimestamp)
            .withIdleness(idleness));
  }
}
