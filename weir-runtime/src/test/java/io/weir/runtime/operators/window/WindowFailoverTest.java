package io.weir.runtime.operators.window;

import static org.assertj.core.api.Assertions.assertThat;

import io.weir.api.checkpoint.CheckpointListener;
import io.weir.api.datastream.JobResult;
import io.weir.api.datastream.RestartStrategy;
import io.weir.api.datastream.StreamEnvironment;
import io.weir.api.eventtime.WatermarkStrategy;
import io.weir.api.functions.AggregateFunction;
import io.weir.api.functions.MapFunction;
import io.weir.api.source.GeneratorSource;
import io.weir.api.windowing.TumblingEventTimeWindows;
import io.weir.runtime.execution.CollectSink;
import java.io.Serializable;
import java.time.Duration;
import java.util.HashMap;
import java.util.Map;
import java.util.concurrent.atomic.AtomicBoolean;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

@Timeout(60)
class WindowFailoverTest {
  private static final long RECORDS = 4_000;
  private static final long SIZE = 100;
  private static final AtomicBoolean FAILED = new AtomicBoolean();

  /** How many records one key had in one window. */
  record WindowCount(long key, long start, long count) implements Serializable {}

  /** Counts a window's records, remembering its key and start. */
  static final class CountWithWindow implements AggregateFunction<Long, WindowCount, WindowCount> {
    @Override
    public WindowCount createAccumulator() {
      return new WindowCount(-1, 0, 0);
    }

    @Override
    public WindowCount add(Long value, WindowCount count) {
      return new WindowCount(value % 3, value - value % SIZE, count.count() + 1);
    }

    @Override
    public WindowCount getResult(WindowCount count) {
      return count;
    }

    @Override
    public WindowCount merge(WindowCount a, WindowCount b) {
      return new WindowCount(a.key(), a.start(), a.count() + b.count());
    }
  }

  /**
   * Throws once, on a record of the second half, after a checkpoint completed: so the restore is
   * from that checkpoint, with windows open in it, not from the beginning.
   */
  static final class FailOnceAfterACheckpoint
      implements MapFunction<Long, Long>, CheckpointListener {
    private transient boolean checkpointCompleted;

    @Override
    public Long map(Long value) {
      if (checkpointCompleted && value >= RECORDS / 2 && FAILED.compareAndSet(false, true)) {
        throw new IllegalStateException("failing once at " + value);
      }
      return value;
    }

    @Override
    public void notifyCheckpointComplete(long checkpointId) {
      checkpointCompleted = true;
    }
  }

  @Test
  void when_jobFailsMidWindow_then_restoredWindowsStillCountEveryRecordOnce() throws Exception {
    // given: checkpoints every 50 ms and one failure half way through
    StreamEnvironment env = StreamEnvironment.getExecutionEnvironment().setParallelism(2);
    env.enableCheckpointing(Duration.ofMillis(50));
    env.setRestartStrategy(RestartStrategy.fixedDelay(3, Duration.ofMillis(100)));
    env.config().autoWatermarkInterval(Duration.ofMillis(10));
    env.addSource(new GeneratorSource<>(RECORDS, i -> i, 2_000))
        .map(new FailOnceAfterACheckpoint())
        .assignTimestampsAndWatermarks(
            WatermarkStrategy.<Long>forMonotonousTimestamps().withTimestampAssigner((i, p) -> i))
        .keyBy(i -> i % 3)
        .window(TumblingEventTimeWindows.of(Duration.ofMillis(SIZE)))
        .aggregate(new CountWithWindow())
        .addSink(new CollectSink<>("window-failover"));
    // when
    JobResult result = env.execute("window-failover");
    // then: windows fired again after the restore repeat the same count, none is short
    assertThat(result.restarts()).isEqualTo(1);
    Map<String, Long> expected = new HashMap<>();
    for (long i = 0; i < RECORDS; i++) {
      expected.merge((i % 3) + "@" + (i - i % SIZE), 1L, Long::sum);
    }
    Map<String, Long> actual = new HashMap<>();
    for (WindowCount count : CollectSink.<WindowCount>results("window-failover")) {
      String window = count.key() + "@" + count.start();
      Long earlier = actual.put(window, count.count());
      assertThat(earlier == null || earlier == count.count())
          .as("window %s fired with %s and %s", window, earlier, count.count())
          .isTrue();
    }
    assertThat(actual).isEqualTo(expected);
  }
}
