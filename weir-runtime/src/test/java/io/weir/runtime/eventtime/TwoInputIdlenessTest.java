package io.weir.runtime.eventtime;

import static org.assertj.core.api.Assertions.assertThat;

import io.weir.api.datastream.DataStream;
import io.weir.api.datastream.StreamEnvironment;
import io.weir.api.eventtime.WatermarkStrategy;
import io.weir.api.functions.Collector;
import io.weir.api.functions.KeyedCoProcessFunction;
import io.weir.api.functions.KeyedProcessFunction;
import io.weir.runtime.execution.CollectSink;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * Event time of a two-input task is the minimum of its inputs' watermarks: a second input that went
 * silent after its first record holds it back, unless its watermark strategy marks it idle.
 */
@Timeout(60)
class TwoInputIdlenessTest {
  private static final long TIMER = 300;

  @Test
  void when_secondInputGoesIdle_then_theFirstInputAloneMovesEventTime() throws Exception {
    // when
    List<String> fired = run("two-input-idle", Duration.ofMillis(200), 20_000);
    // then
    assertThat(fired).containsExactly("timer " + TIMER);
    assertThat(SilentSubtaskSource.ranOutOfPatience("two-input-idle")).isFalse();
  }

  @Test
  void when_secondInputIsSilentWithoutIdleness_then_eventTimeWaitsForIt() throws Exception {
    // when
    List<String> fired = run("two-input-waits", null, 1_500);
    // then: no timer fired while the inputs ran (the sources stop at the first result), only
    // with the watermark that ends the input
    assertThat(SilentSubtaskSource.ranOutOfPatience("two-input-waits")).isTrue();
    assertThat(fired).containsExactly("timer " + TIMER);
  }

  private static List<String> run(String name, Duration idleness, long patienceMillis)
      throws Exception {
    StreamEnvironment env = StreamEnvironment.getExecutionEnvironment().setParallelism(1);
    env.config().autoWatermarkInterval(Duration.ofMillis(20));
    DataStream<Long> fast =
        env.addSource(new SilentSubtaskSource(name, patienceMillis))
            .assignTimestampsAndWatermarks(
                WatermarkStrategy.<Long>forMonotonousTimestamps()
                    .withTimestampAssigner((i, previous) -> i));
    WatermarkStrategy<Long> quietStrategy =
        WatermarkStrategy.<Long>forMonotonousTimestamps().withTimestampAssigner((i, p) -> i);
    if (idleness != null) {
      quietStrategy = quietStrategy.withIdleness(idleness);
    }
    DataStream<Long> quiet =
        env.addSource(new OneThenSilentSource(name, patienceMillis))
            .assignTimestampsAndWatermarks(quietStrategy);
    fast.connect(quiet)
        .keyBy(i -> 0L, i -> 0L)
        .process(new TimerAt())
        .addSink(new CollectSink<>(name));
    env.execute(name);
    return CollectSink.results(name);
  }

  /** Sets one event-time timer with the first input's records before it; reports it firing. */
  static final class TimerAt extends KeyedCoProcessFunction<Long, Long, Long, String> {
    @Override
    public void processElement1(
        Long value, KeyedProcessFunction.Context<Long> context, Collector<String> out) {
      if (context.timestamp() < TIMER) {
        context.timerService().registerEventTimeTimer(TIMER);
      }
    }

    @Override
    public void processElement2(
        Long value, KeyedProcessFunction.Context<Long> context, Collector<String> out) {}

    @Override
    public void onTimer(
        long timestamp, KeyedProcessFunction.OnTimerContext<Long> context, Collector<String> out) {
      out.collect("timer " + timestamp);
    }
  }
}
