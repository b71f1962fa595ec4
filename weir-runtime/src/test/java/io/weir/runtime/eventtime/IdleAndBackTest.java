package io.weir.runtime.eventtime;

import static org.assertj.core.api.Assertions.assertThat;

import io.weir.api.datastream.DataStream;
import io.weir.api.datastream.StreamEnvironment;
import io.weir.api.eventtime.WatermarkStrategy;
import io.weir.api.functions.CoMapFunction;
import io.weir.api.functions.Collector;
import io.weir.api.functions.OutputTag;
import io.weir.api.functions.ProcessWindowFunction;
import io.weir.api.windowing.TimeWindow;
import io.weir.api.windowing.TumblingEventTimeWindows;
import io.weir.runtime.eventtime.ReturningSource.Role;
import io.weir.runtime.execution.CollectSink;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * An event-time window after a channel that goes idle and comes back, in a running job: one of two
 * source subtasks of a one-input task, or the second input of a two-input task. While it is idle
 * the other one alone moves event time and windows fire; once it is back it holds event time again,
 * so no window fires before its records and none of them is late. The windows' counts match a plain
 * loop over what the sources emit.
 */
@Timeout(120)
class IdleAndBackTest {
  private static final OutputTag<Long> LATE = new OutputTag<>("late");

  @Test
  void when_sourceSubtaskIdlesAndReturns_then_windowsFireOnceAndNoneEarly() throws Exception {
    // given
    String name = "subtask-idle-and-back";
    StreamEnvironment env = StreamEnvironment.getExecutionEnvironment().setParallelism(2);
    env.config().autoWatermarkInterval(Duration.ofMillis(10));
    DataStream<Long> times = timed(env.addSource(new ReturningSource(name, null)));
    // when
    countPerWindow(times, name);
    env.execute(name);
    // then
    assertThat(CollectSink.<Long>results(name + "-late")).isEmpty();
    assertThat(CollectSink.<String>results(name)).containsExactlyElementsOf(reference());
  }

  @Test
  void when_secondInputIdlesAndReturns_then_windowsFireOnceAndNoneEarly() throws Exception {
    // given
    String name = "input-idle-and-back";
    StreamEnvironment env = StreamEnvironment.getExecutionEnvironment().setParallelism(1);
    env.config().autoWatermarkInterval(Duration.ofMillis(10));
    DataStream<Long> steady = timed(env.addSource(new ReturningSource(name, Role.STEADY)));
    DataStream<Long> returning = timed(env.addSource(new ReturningSource(name, Role.RETURNING)));
    // when
    countPerWindow(steady.connect(returning).map(new Union()), name);
    env.execute(name);
    // then
    assertThat(CollectSink.<Long>results(name + "-late")).isEmpty();
    assertThat(CollectSink.<String>results(name)).containsExactlyElementsOf(reference());
  }

  private static DataStream<Long> timed(DataStream<Long> source) {
    return source.assignTimestampsAndWatermarks(
        WatermarkStrategy.<Long>forMonotonousTimestamps()
            .withTimestampAssigner((time, previous) -> time)
            // Far above the sources' pace: a busy machine that leaves a returned source's thread
            // unscheduled for a while must not make it idle again and its records late.
            .withIdleness(Duration.ofSeconds(1)));
  }

  private static void countPerWindow(DataStream<Long> times, String name) {
    DataStream<String> counts =
        times
            .keyBy(time -> 0)
            .window(TumblingEventTimeWindows.of(Duration.ofMillis(10)))
            .sideOutputLateData(LATE)
            .process(new Count())
            .setParallelism(1);
    counts.addSink(new CollectSink<>(name)).setParallelism(1);
    counts.getSideOutput(LATE).addSink(new CollectSink<>(name + "-late")).setParallelism(1);
  }

  /** The windows in the order they fire, with their counts, by a loop over both roles. */
  private static List<String> reference() {
    Map<Long, Long> counts = new TreeMap<>();
    for (Role role : Role.values()) {
      for (long time = 0; time < ReturningSource.END; time++) {
        if (ReturningSource.emitted(role, time)) {
          counts.merge(time / 10 * 10 + 10, 1L, Long::sum);
        }
      }
    }
    return counts.entrySet().stream()
        .map(window -> ReturningSource.window(window.getKey()) + ": " + window.getValue())
        .toList();
  }

  /** The window and how many records it holds. */
  static final class Count extends ProcessWindowFunction<Long, String, Integer, TimeWindow> {
    @Override
    public void process(
        Integer key, Context<TimeWindow> context, Iterable<Long> times, Collector<String> out) {
      long count = 0;
      for (Long ignored : times) {
        count++;
      }
      out.collect(ReturningSource.window(context.window().end()) + ": " + count);
    }
  }

  static final class Union implements CoMapFunction<Long, Long, Long> {
    @Override
    public Long map1(Long time) {
      return time;
    }

    @Override
    public Long map2(Long time) {
      return time;
    }
  }
}
