package io.weir.runtime.execution;

import static org.assertj.core.api.Assertions.assertThat;

import io.weir.api.datastream.StreamEnvironment;
import io.weir.api.eventtime.WatermarkStrategy;
import io.weir.api.functions.AggregateFunction;
import io.weir.api.windowing.TumblingEventTimeWindows;
import java.io.Serializable;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.stream.Collectors;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.Combinators;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;
import net.jqwik.api.constraints.IntRange;

/**
 * Jobs over random input equal a straightforward computation of the same thing, at every
 * parallelism from 1 to 4.
 */
class PropertyTest {
  /** Window sizes the window property picks from. */
  private static final long[] WINDOW_SIZES = {10, 50, 100};

  /** How far back from its place in the stream a record's timestamp may be. */
  private static final long MAX_DELAY = 40;

  private static final AtomicInteger RUNS = new AtomicInteger();

  /** A test record. */
  record Event(int key, long timestamp, long value) implements Serializable {}

  /** A per-key result: the key and a sum (running for reduce, per window for windows). */
  record KeyedSum(int key, long windowStart, long sum) implements Serializable {}

  @Property(tries = 20)
  void when_keyedReduceRunsOnRandomInput_then_eachKeysRunningSumsMatchTheReference(
      @ForAll("events") List<Event> events, @ForAll @IntRange(min = 1, max = 4) int parallelism)
      throws Exception {
    // given
    String sink = "reduce-" + RUNS.incrementAndGet();
    StreamEnvironment env = StreamEnvironment.getExecutionEnvironment().setParallelism(parallelism);
    env.fromCollection(events)
        .map(e -> new KeyedSum(e.key(), 0, e.value()))
        .setParallelism(1)
        .keyBy(KeyedSum::key)
        .reduce((a, b) -> new KeyedSum(a.key(), 0, a.sum() + b.sum()))
        .addSink(new CollectSink<>(sink));
    // when
    env.execute(sink);
    // then: per key, the running sums in input order (the map is chained to the single source,
    // so each key's records reach their reducer in input order)
    Map<Integer, List<Long>> expected = new TreeMap<>();
    Map<Integer, Long> sums = new HashMap<>();
    for (Event event : events) {
      long sum = sums.merge(event.key(), event.value(), Long::sum);
      expected.computeIfAbsent(event.key(), k -> new ArrayList<>()).add(sum);
    }
    Map<Integer, List<Long>> actual =
        CollectSink.<KeyedSum>results(sink).stream()
            .collect(
                Collectors.groupingBy(
                    KeyedSum::key,
                    TreeMap::new,
                    Collectors.mapping(KeyedSum::sum, Collectors.toList())));
    assertThat(actual).isEqualTo(expected);
  }

  @Property(tries = 20)
  void when_tumblingWindowsRunOnOutOfOrderInput_then_eachWindowSumMatchesTheReference(
      @ForAll("events") List<Event> events,
      @ForAll @IntRange(min = 1, max = 4) int parallelism,
      @ForAll @IntRange(min = 0, max = 2) int sizeIndex)
      throws Exception {
    // given: a watermark bound no smaller than any record's delay, so nothing is late
    long size = WINDOW_SIZES[sizeIndex];
    String sink = "windows-" + RUNS.incrementAndGet();
    StreamEnvironment env = StreamEnvironment.getExecutionEnvironment().setParallelism(parallelism);
    env.config().autoWatermarkInterval(Duration.ofMillis(1));
    env.fromCollection(events)
        .assignTimestampsAndWatermarks(
            WatermarkStrategy.<Event>forBoundedOutOfOrderness(Duration.ofMillis(MAX_DELAY))
                .withTimestampAssigner((event, previous) -> event.timestamp()))
        .keyBy(Event::key)
        .window(TumblingEventTimeWindows.of(Duration.ofMillis(size)))
        .aggregate(new WindowSum(size))
        .addSink(new CollectSink<>(sink));
    // when
    env.execute(sink);
    // then
    Map<List<Long>, Long> expected = new HashMap<>();
    for (Event event : events) {
      long start = Math.floorDiv(event.timestamp(), size) * size;
      expected.merge(List.of((long) event.key(), start), event.value(), Long::sum);
    }
    Map<List<Long>, Long> actual = new HashMap<>();
    for (KeyedSum result : CollectSink.<KeyedSum>results(sink)) {
      Long previous = actual.put(List.of((long) result.key(), result.windowStart()), result.sum());
      assertThat(previous).as("window %s fired once", result).isNull();
    }
    assertThat(actual).isEqualTo(expected);
  }

  /**
   * Records in stream order whose timestamps grow, each then delayed by up to {@link #MAX_DELAY}:
   * out of order, but within the bound.
   */
  @Provide
  Arbitrary<List<Event>> events() {
    Arbitrary<long[]> step =
        Combinators.combine(
                Arbitraries.integers().between(0, 5),
                Arbitraries.longs().between(0, 15),
                Arbitraries.longs().between(0, MAX_DELAY),
                Arbitraries.longs().between(-100, 100))
            .as((key, advance, delay, value) -> new long[] {key, advance, delay, value});
    return step.list()
        .ofMaxSize(300)
        .map(
            steps -> {
              List<Event> events = new ArrayList<>();
              long time = 0;
              for (long[] s : steps) {
                time += s[1];
                events.add(new Event((int) s[0], time - s[2], s[3]));
              }
              return events;
            });
  }

  /** Sums a window's values, remembering the key and the window's start. */
  static final class WindowSum implements AggregateFunction<Event, KeyedSum, KeyedSum> {
    private final long size;

    WindowSum(long size) {
      this.size = size;
    }

    @Override
    public KeyedSum createAccumulator() {
      return new KeyedSum(-1, 0, 0);
    }

    @Override
    public KeyedSum add(Event event, KeyedSum sum) {
      long start = Math.floorDiv(event.timestamp(), size) * size;
      return new KeyedSum(event.key(), start, sum.sum() + event.value());
    }

    @Override
    public KeyedSum getResult(KeyedSum sum) {
      return sum;
    }

    @Override
    public KeyedSum merge(KeyedSum a, KeyedSum b) {
      return new KeyedSum(a.key(), a.windowStart(), a.sum() + b.sum());
    }
  }
}
