package io.weir.runtime.eventtime;

import static org.assertj.core.api.Assertions.assertThat;

import io.weir.api.datastream.DataStream;
import io.weir.api.datastream.StreamEnvironment;
import io.weir.api.eventtime.WatermarkStrategy;
import io.weir.api.functions.OutputTag;
import io.weir.api.source.GeneratorSource;
import io.weir.api.windowing.TumblingEventTimeWindows;
import io.weir.runtime.execution.CollectSink;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

@Timeout(60)
class WatermarkTest {
  private static final OutputTag<Long> LATE = new OutputTag<>("late");

  @Test
  void when_sourceSubtasksProgressAtDifferentSpeeds_then_eventTimeFollowsTheSlowest()
      throws Exception {
    // given: subtask 0 (even indexes) runs 50 times ahead of subtask 1 in event time
    StreamEnvironment env = StreamEnvironment.getExecutionEnvironment().setParallelism(2);
    env.config().autoWatermarkInterval(Duration.ofMillis(5));
    DataStream<Long> timed =
        env.addSource(new GeneratorSource<>(2_000, i -> i, 1_000))
            .assignTimestampsAndWatermarks(
                WatermarkStrategy.<Long>forMonotonousTimestamps()
                    .withTimestampAssigner((i, previous) -> i % 2 == 0 ? i * 50 : i));
    // when
    countPerWindow(env, timed, "min-over-channels");
    // then: had the fast subtask's watermark won, the slow one's records would all be late
    assertThat(CollectSink.<Long>results("min-over-channels-late")).isEmpty();
    assertThat(sum(CollectSink.results("min-over-channels"))).isEqualTo(2_000);
  }

  @Test
  void when_oneSourceSubtaskIsSilent_then_idlenessLetsEventTimeAdvance() throws Exception {
    // when
    List<Long> counts = runWithSilentSubtask("idle", Duration.ofMillis(200), 20_000);
    // then: the first window fired while the silent subtask was still running
    assertThat(SilentSubtaskSource.ranOutOfPatience("idle")).isFalse();
    assertThat(counts.get(0)).isEqualTo(10);
  }

  @Test
  void when_oneSourceSubtaskIsSilentWithoutIdleness_then_eventTimeWaitsForIt() throws Exception {
    // when
    List<Long> counts = runWithSilentSubtask("not-idle", null, 1_500);
    // then: nothing fired until the silent subtask ended
    assertThat(SilentSubtaskSource.ranOutOfPatience("not-idle")).isTrue();
    assertThat(counts).isNotEmpty();
  }

  @Test
  void when_recordsAreOutOfOrderWithinTheBound_then_noneIsLate() throws Exception {
    // when: timestamps are up to 49 ms behind their place in the stream, bound 50 ms
    runOutOfOrder("bounded", WatermarkStrategy.forBoundedOutOfOrderness(Duration.ofMillis(50)));
    // then
    assertThat(CollectSink.<Long>results("bounded-late")).isEmpty();
    assertThat(sum(CollectSink.results("bounded"))).isEqualTo(3_000);
  }

  @Test
  void when_recordsAreOutOfOrderBeyondTheBound_then_someAreLate() throws Exception {
    // when: the same input, with a bound of zero
    runOutOfOrder("unbounded", WatermarkStrategy.forMonotonousTimestamps());
    // then
    long late = CollectSink.<Long>results("unbounded-late").size();
    assertThat(late).isPositive();
    assertThat(sum(CollectSink.results("unbounded")) + late).isEqualTo(3_000);
  }

  private static List<Long> runWithSilentSubtask(
      String name, Duration idleness, long patienceMillis) throws Exception {
    StreamEnvironment env = StreamEnvironment.getExecutionEnvironment().setParallelism(2);
    env.config().autoWatermarkInterval(Duration.ofMillis(20));
    WatermarkStrategy<Long> strategy =
        WatermarkStrategy.<Long>forMonotonousTimestamps().withTimestampAssigner((i, p) -> i);
    if (idleness != null) {
      strategy = strategy.withIdleness(idleness);
    }
    DataStream<Long> timed =
        env.addSource(new SilentSubtaskSource(name, patienceMillis))
            .assignTimestampsAndWatermarks(strategy);
    timed
        .keyBy(i -> 0)
        .window(TumblingEventTimeWindows.of(Duration.ofMillis(10)))
        .aggregate(new CountPerWindow())
        .setParallelism(1)
        .addSink(new CollectSink<>(name))
        .setParallelism(1);
    env.execute(name);
    return CollectSink.results(name);
  }

  private static void runOutOfOrder(String name, WatermarkStrategy<Long> strategy)
      throws Exception {
    StreamEnvironment env = StreamEnvironment.getExecutionEnvironment().setParallelism(1);
    env.config().autoWatermarkInterval(Duration.ofMillis(2));
    DataStream<Long> timed =
        env.addSource(new GeneratorSource<>(3_000, i -> i, 3_000))
            .assignTimestampsAndWatermarks(
                strategy.withTimestampAssigner((i, previous) -> i - (i * 37) % 50));
    countPerWindow(env, timed, name);
  }

  /** Counts per key (odd, even) and 100 ms window into {@code name}, late records to name-late. */
  private static void countPerWindow(StreamEnvironment env, DataStream<Long> timed, String name)
      throws Exception {
    DataStream<Long> counts =
        timed
            .keyBy(i -> i % 2)
            .window(TumblingEventTimeWindows.of(Duration.ofMillis(100)))
            .sideOutputLateData(LATE)
            .aggregate(new CountPerWindow());
    counts.addSink(new CollectSink<>(name));
    counts.getSideOutput(LATE).addSink(new CollectSink<>(name + "-late"));
    env.execute(name);
  }

  private static long sum(List<Long> values) {
    return values.stream().mapToLong(Long::longValue).sum();
  }
}
