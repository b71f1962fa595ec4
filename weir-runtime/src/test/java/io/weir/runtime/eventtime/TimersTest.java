package io.weir.runtime.eventtime;

import static org.assertj.core.api.Assertions.assertThat;

import io.weir.api.datastream.StreamEnvironment;
import io.weir.api.eventtime.WatermarkStrategy;
import io.weir.api.functions.Collector;
import io.weir.api.functions.KeyedProcessFunction;
import io.weir.api.source.GeneratorSource;
import io.weir.runtime.execution.CollectSink;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

@Timeout(60)
class TimersTest {

  /** Registers a timer {@code delay} after each record; emits "domain@time" when one fires. */
  static final class TimerPerRecord extends KeyedProcessFunction<Long, Long, String> {
    private final boolean eventTime;
    private final long delay;

    TimerPerRecord(boolean eventTime, long delay) {
      this.eventTime = eventTime;
      this.delay = delay;
    }

    @Override
    public void processElement(Long value, Context<Long> context, Collector<String> out) {
      if (eventTime) {
        context.timerService().registerEventTimeTimer(context.timestamp() + delay);
      } else {
        context
            .timerService()
            .registerProcessingTimeTimer(context.timerService().currentProcessingTime() + delay);
      }
    }

    @Override
    public void onTimer(long timestamp, OnTimerContext<Long> context, Collector<String> out) {
      String domain = context.isEventTime() ? "event" : "processing";
      long emittedAt = context.isEventTime() ? context.timestamp() : timestamp;
      out.collect(domain + "@" + emittedAt);
    }
  }

  @Test
  void when_processingTimePassesTimers_then_keyedProcessFunctionTimersFire() throws Exception {
    // given: 40 records over about 400 ms, each asking for a timer 20 ms later
    StreamEnvironment env = StreamEnvironment.getExecutionEnvironment();
    env.addSource(new GeneratorSource<>(40, i -> i, 100))
        .keyBy(i -> i % 4)
        .process(new TimerPerRecord(false, 20))
        .addSink(new CollectSink<>("processing-timers"));
    long started = System.currentTimeMillis();
    // when
    env.execute("processing-timers");
    // then: all but perhaps the last few (the job may end before they are due) fired
    List<String> fired = CollectSink.results("processing-timers");
    assertThat(fired).hasSizeGreaterThanOrEqualTo(30).allMatch(s -> s.startsWith("processing@"));
    assertThat(fired)
        .allSatisfy(
            s ->
                assertThat(Long.parseLong(s.substring("processing@".length())))
                    .isGreaterThan(started));
  }

  @Test
  void when_watermarkPassesEventTimeTimers_then_theyFireInTimeOrder() throws Exception {
    // given: out-of-order records over three keys; key 1 asks for time 15 twice
    StreamEnvironment env = StreamEnvironment.getExecutionEnvironment();
    env.fromElements(50L, 10L, 40L, 70L, 20L, 30L, 10L, 60L)
        .assignTimestampsAndWatermarks(
            WatermarkStrategy.<Long>forBoundedOutOfOrderness(Duration.ofMillis(100))
                .withTimestampAssigner((i, previous) -> i))
        .keyBy(i -> i % 3)
        .process(new TimerPerRecord(true, 5))
        .addSink(new CollectSink<>("event-timers"));
    // when: the final watermark fires them all
    env.execute("event-timers");
    // then
    assertThat(CollectSink.<String>results("event-timers"))
        .containsExactly(
            "event@15", "event@25", "event@35", "event@45", "event@55", "event@65", "event@75");
  }
}
