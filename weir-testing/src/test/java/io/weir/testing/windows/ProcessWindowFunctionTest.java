package io.weir.testing.windows;

import static org.assertj.core.api.Assertions.assertThat;

import io.weir.api.functions.Collector;
import io.weir.api.functions.ProcessWindowFunction;
import io.weir.api.graph.OperatorSpec;
import io.weir.api.windowing.SlidingProcessingTimeWindows;
import io.weir.api.windowing.TimeWindow;
import io.weir.api.windowing.TumblingEventTimeWindows;
import io.weir.testing.OperatorTestHarness;
import io.weir.testing.Timestamped;
import io.weir.testing.windows.WindowSummary.CountAndSum;
import io.weir.testing.windows.WindowSummary.FromClicks;
import io.weir.testing.windows.WindowSummary.FromReduced;
import io.weir.testing.windows.WindowSummary.FromTotals;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * Process window functions on tumbling and sliding windows, on both backends, each restored after
 * every input, against windows computed by a loop.
 */
class ProcessWindowFunctionTest {
  private static final long SIZE = 25;

  private static OperatorSpec.Window tumbling(
      Object reduce, Object aggregate, ProcessWindowFunction<?, ?, ?, ?> function) {
    return new OperatorSpec.Window(
        TumblingEventTimeWindows.of(Duration.ofMillis(SIZE)),
        (io.weir.api.functions.ReduceFunction<?>) reduce,
        (io.weir.api.functions.AggregateFunction<?, ?, ?>) aggregate,
        function,
        0,
        null);
  }

  @ParameterizedTest(name = "{0}")
  @ValueSource(strings = {"heap", "rocksdb"})
  void when_windowsAreProcessed_then_eachGetsItsKeyBoundsAndEveryRecord(String backend)
      throws Exception {
    // given
    ClickStream input = ClickStream.random(11, 20, 4, 10, 5);
    try (OperatorTestHarness<Click, WindowSummary> harness =
        Harnesses.<WindowSummary>byUser(tumbling(null, null, new FromClicks()), backend)
            .parallelism(2)
            .restoreAfterEveryInput()
            .open()) {
      // when
      input.feed(Harnesses.feed(harness));
      // then
      assertThat(harness.output())
          .containsExactlyInAnyOrderElementsOf(WindowReference.tumbling(input.clicks(), SIZE));
      assertThat(harness.outputWithTimestamps())
          .allSatisfy(
              emitted -> assertThat(emitted.timestamp()).isEqualTo(emitted.value().end() - 1));
    }
  }

  @ParameterizedTest(name = "{0}")
  @ValueSource(strings = {"heap", "rocksdb"})
  void when_aggregateHasAProcessWindowFunction_then_itGetsTheOnePreAggregatedValue(String backend)
      throws Exception {
    // given
    ClickStream input = ClickStream.random(12, 20, 4, 10, 5);
    try (OperatorTestHarness<Click, WindowSummary> harness =
        Harnesses.<WindowSummary>byUser(
                tumbling(null, new CountAndSum(), new FromTotals<TimeWindow>()), backend)
            .parallelism(2)
            .restoreAfterEveryInput()
            .open()) {
      // when
      input.feed(Harnesses.feed(harness));
      // then
      assertThat(harness.output())
          .containsExactlyInAnyOrderElementsOf(WindowReference.tumbling(input.clicks(), SIZE));
    }
  }

  @ParameterizedTest(name = "{0}")
  @ValueSource(strings = {"heap", "rocksdb"})
  void when_reduceHasAProcessWindowFunction_then_itGetsTheOneReducedRecord(String backend)
      throws Exception {
    // given
    ClickStream input = ClickStream.random(13, 20, 4, 10, 5);
    io.weir.api.functions.ReduceFunction<Click> sum = WindowSummary::sum;
    try (OperatorTestHarness<Click, WindowSummary> harness =
        Harnesses.<WindowSummary>byUser(tumbling(sum, null, new FromReduced()), backend)
            .parallelism(2)
            .restoreAfterEveryInput()
            .open()) {
      // when
      input.feed(Harnesses.feed(harness));
      // then
      assertThat(harness.output())
          .containsExactlyInAnyOrderElementsOf(
              WindowReference.tumbling(input.clicks(), SIZE).stream()
                  .map(WindowSummary::withoutCount)
                  .toList());
    }
  }

  /** Emits the window's bounds, its key and the processing time it fired at. */
  private static final class Bounds
      extends ProcessWindowFunction<Click, String, String, TimeWindow> {
    @Override
    public void process(
        String user, Context<TimeWindow> context, Iterable<Click> clicks, Collector<String> out) {
      long count = 0;
      for (Click click : clicks) {
        count++;
      }
      TimeWindow window = context.window();
      out.collect(
          user
              + "["
              + window.start()
              + ","
              + window.end()
              + ")="
              + count
              + "@"
              + context.currentProcessingTime());
    }
  }

  @Test
  void when_processingTimePassesSlidingWindows_then_eachFiresWithItsRecords() throws Exception {
    // given: windows of 10 every 5 on processing time
    OperatorSpec.Window spec =
        new OperatorSpec.Window(
            SlidingProcessingTimeWindows.of(Duration.ofMillis(10), Duration.ofMillis(5)),
            null,
            null,
            new Bounds(),
            0,
            null);
    try (OperatorTestHarness<Click, String> harness =
        Harnesses.<String>byUser(spec, "heap").restoreAfterEveryInput().open()) {
      harness.setProcessingTime(3).processElement(new Click("a", 0, 1));
      harness.setProcessingTime(7).processElement(new Click("a", 0, 1));
      // when: the first window ended at 4 and fired when time moved to 7
      harness.setProcessingTime(12);
      harness.setProcessingTime(30);
      // then
      assertThat(harness.outputWithTimestamps())
          .containsExactly(
              new Timestamped<>("a[-5,5)=1@7", 4),
              new Timestamped<>("a[0,10)=2@12", 9),
              new Timestamped<>("a[5,15)=1@30", 14));
    }
  }

  /** Emits the watermark its window fired at. */
  private static final class Watermark
      extends ProcessWindowFunction<Click, Long, String, TimeWindow> {
    @Override
    public void process(
        String user, Context<TimeWindow> context, Iterable<Click> clicks, Collector<Long> out) {
      out.collect(context.currentWatermark());
    }
  }

  @Test
  void when_windowFunctionReadsTheWatermark_then_itIsTheOneThatFiredTheWindow() throws Exception {
    // given
    try (OperatorTestHarness<Click, Long> harness =
        Harnesses.<Long>byUser(tumbling(null, null, new Watermark()), "heap").open()) {
      harness.processElement(new Click("a", 3, 1), 3).processElement(new Click("a", 30, 1), 30);
      // when
      harness.processWatermark(60);
      // then
      assertThat(harness.output()).isEqualTo(List.of(60L, 60L));
    }
  }
}
