package io.weir.rocksdb;

import static org.assertj.core.api.Assertions.assertThat;

import io.weir.api.datastream.StreamEnvironment;
import io.weir.api.eventtime.WatermarkStrategy;
import io.weir.api.functions.Collector;
import io.weir.api.functions.ProcessWindowFunction;
import io.weir.api.sink.SinkFunction;
import io.weir.api.source.GeneratorSource;
import io.weir.api.state.StateBackend;
import io.weir.api.windowing.GlobalWindow;
import io.weir.api.windowing.TimeWindow;
import io.weir.api.windowing.TumblingEventTimeWindows;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Queue;
import java.util.concurrent.ConcurrentLinkedQueue;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * Count windows and windows with a process function built through the stream API and run as whole
 * jobs in this JVM, on each backend, against a loop over the same records.
 */
@Timeout(120)
class WindowApiJobTest {
  private static final long RECORDS = 3_000;
  private static final long KEYS = 5;

  /** What the sink saw; static as functions are copied into each subtask. */
  static final Queue<String> RESULTS = new ConcurrentLinkedQueue<>();

  static final class Collect implements SinkFunction<String> {
    @Override
    public void invoke(String value, Context context) {
      RESULTS.add(value);
    }
  }

  /** "key:count:sum" of a full count window. */
  static final class CountLine extends ProcessWindowFunction<Long, String, Long, GlobalWindow> {
    @Override
    public void process(
        Long key, Context<GlobalWindow> context, Iterable<Long> values, Collector<String> out) {
      long count = 0;
      long sum = 0;
      for (long value : values) {
        count++;
        sum += value;
      }
      out.collect(key + ":" + count + ":" + sum);
    }
  }

  /** "key@start:sum" of a tumbling window, from its one reduced value. */
  static final class SumLine extends ProcessWindowFunction<Long, String, Long, TimeWindow> {
    @Override
    public void process(
        Long key, Context<TimeWindow> context, Iterable<Long> sums, Collector<String> out) {
      out.collect(key + "@" + context.window().start() + ":" + sums.iterator().next());
    }
  }

  private static StreamEnvironment environment(String backend) {
    RESULTS.clear();
    StreamEnvironment env = StreamEnvironment.getExecutionEnvironment().setParallelism(2);
    env.setStateBackend(StateBackend.named(backend));
    env.enableCheckpointing(Duration.ofMillis(100));
    return env;
  }

  @ParameterizedTest(name = "{0}")
  @ValueSource(strings = {"heap", "rocksdb"})
  void when_countWindowProcessesEveryFourRecordsOfAKey_then_eachFullWindowIsEmittedOnce(
      String backend) throws Exception {
    // given: one source subtask, so that each key's records arrive in index order
    StreamEnvironment env = environment(backend);
    env.addSource(new GeneratorSource<>(RECORDS, index -> index))
        .setParallelism(1)
        .keyBy(index -> index % KEYS)
        .countWindow(4)
        .process(new CountLine())
        .addSink(new Collect());
    // when
    env.execute("count-windows");
    // then: each key's records in order, in full chunks of four
    Map<Long, List<Long>> open = new HashMap<>();
    List<String> expected = new ArrayList<>();
    for (long index = 0; index < RECORDS; index++) {
      List<Long> window = open.computeIfAbsent(index % KEYS, key -> new ArrayList<>());
      window.add(index);
      if (window.size() == 4) {
        long sum = window.stream().mapToLong(Long::longValue).sum();
        expected.add(index % KEYS + ":4:" + sum);
        window.clear();
      }
    }
    assertThat(RESULTS).containsExactlyInAnyOrderElementsOf(expected);
  }

  @ParameterizedTest(name = "{0}")
  @ValueSource(strings = {"heap", "rocksdb"})
  void when_reduceHasAProcessWindowFunction_then_itLabelsEachWindowsSumWithKeyAndStart(
      String backend) throws Exception {
    // given
    StreamEnvironment env = environment(backend);
    env.addSource(new GeneratorSource<>(RECORDS, index -> index))
        .setParallelism(1)
        .assignTimestampsAndWatermarks(
            WatermarkStrategy.<Long>forMonotonousTimestamps()
                .withTimestampAssigner((index, previous) -> index))
        .setParallelism(1)
        .keyBy(index -> index % KEYS)
        .window(TumblingEventTimeWindows.of(Duration.ofMillis(100)))
        .reduce(Long::sum, new SumLine())
        .addSink(new Collect());
    // when
    env.execute("labelled-sums");
    // then
    Map<String, Long> sums = new HashMap<>();
    for (long index = 0; index < RECORDS; index++) {
      sums.merge(index % KEYS + "@" + (index - index % 100), index, Long::sum);
    }
    List<String> expected = new ArrayList<>();
    sums.forEach((window, sum) -> expected.add(window + ":" + sum));
    assertThat(RESULTS).containsExactlyInAnyOrderElementsOf(expected);
  }
}
