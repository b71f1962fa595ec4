package io.weir.testing.windows;

import static org.assertj.core.api.Assertions.assertThat;

import io.weir.api.functions.OutputTag;
import io.weir.api.functions.ReduceFunction;
import io.weir.api.graph.OperatorSpec;
import io.weir.api.windowing.EventTimeSessionWindows;
import io.weir.api.windowing.ProcessingTimeSessionWindows;
import io.weir.api.windowing.TimeWindow;
import io.weir.testing.OperatorSnapshot;
import io.weir.testing.OperatorTestHarness;
import io.weir.testing.windows.WindowSummary.CountAndSum;
import io.weir.testing.windows.WindowSummary.FromClicks;
import io.weir.testing.windows.WindowSummary.FromReduced;
import io.weir.testing.windows.WindowSummary.FromTotals;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * Session windows merge as records arrive, on both backends and restored after every input, against
 * sessions a loop cuts from each user's sorted clicks.
 */
class SessionWindowTest {
  private static final long GAP = 7;
  private static final OutputTag<Click> LATE = new OutputTag<>("late");

  private static OperatorSpec.Window sessions(
      ReduceFunction<Click> reduce, CountAndSum aggregate, Object function, long lateness) {
    return new OperatorSpec.Window(
        EventTimeSessionWindows.withGap(Duration.ofMillis(GAP)),
        reduce,
        aggregate,
        (io.weir.api.functions.ProcessWindowFunction<?, ?, ?, ?>) function,
        lateness,
        LATE);
  }

  @ParameterizedTest(name = "{0}")
  @ValueSource(strings = {"heap", "rocksdb"})
  void when_clicksArriveOutOfOrder_then_eachSessionHoldsTheClicksWithinTheGap(String backend)
      throws Exception {
    // given: sparse clicks, so that sessions both split and merge across blocks
    ClickStream input = ClickStream.random(21, 25, 3, 10, 3);
    try (OperatorTestHarness<Click, WindowSummary> harness =
        Harnesses.<WindowSummary>byUser(sessions(null, null, new FromClicks(), 0), backend)
            .parallelism(2)
            .restoreAfterEveryInput()
            .open()) {
      // when
      input.feed(Harnesses.feed(harness));
      // then
      assertThat(harness.output())
          .containsExactlyInAnyOrderElementsOf(WindowReference.sessions(input.clicks(), GAP));
      assertThat(harness.sideOutput(LATE)).isEmpty();
    }
  }

  @ParameterizedTest(name = "{0}")
  @ValueSource(strings = {"heap", "rocksdb"})
  void when_sessionsAggregate_then_mergedAccumulatorsMatchTheReference(String backend)
      throws Exception {
    // given
    ClickStream input = ClickStream.random(22, 25, 3, 10, 3);
    try (OperatorTestHarness<Click, WindowSummary> harness =
        Harnesses.<WindowSummary>byUser(
                sessions(null, new CountAndSum(), new FromTotals<TimeWindow>(), 0), backend)
            .parallelism(2)
            .restoreAfterEveryInput()
            .open()) {
      // when
      input.feed(Harnesses.feed(harness));
      // then
      assertThat(harness.output())
          .containsExactlyInAnyOrderElementsOf(WindowReference.sessions(input.clicks(), GAP));
    }
  }

  @ParameterizedTest(name = "{0}")
  @ValueSource(strings = {"heap", "rocksdb"})
  void when_sessionsReduce_then_mergedReducedValuesMatchTheReference(String backend)
      throws Exception {
    // given
    ClickStream input = ClickStream.random(23, 25, 3, 10, 3);
    try (OperatorTestHarness<Click, WindowSummary> harness =
        Harnesses.<WindowSummary>byUser(
                sessions(WindowSummary::sum, null, new FromReduced(), 0), backend)
            .parallelism(2)
            .restoreAfterEveryInput()
            .open()) {
      // when
      input.feed(Harnesses.feed(harness));
      // then
      assertThat(harness.output())
          .containsExactlyInAnyOrderElementsOf(
              WindowReference.sessions(input.clicks(), GAP).stream()
                  .map(WindowSummary::withoutCount)
                  .toList());
    }
  }

  @ParameterizedTest(name = "{0}")
  @ValueSource(strings = {"heap", "rocksdb"})
  void when_openSessionsAreRestoredAtThreeSubtasksFromTwo_then_theyMergeAndFireAsWithout(
      String backend) throws Exception {
    // given: the first half of the clicks at parallelism 2, snapshotted with sessions open
    ClickStream input = ClickStream.random(24, 30, 5, 10, 4);
    int half = input.clicks().size() / 2;
    OperatorTestHarness<Click, WindowSummary> harness =
        Harnesses.<WindowSummary>byUser(
                sessions(null, new CountAndSum(), new FromTotals<TimeWindow>(), 0), backend)
            .parallelism(2)
            .open();
    ClickStream.ClickFeed feed = Harnesses.feed(harness);
    for (int index = 0; index < half; index++) {
      feed.click(input.clicks().get(index));
    }
    OperatorSnapshot snapshot = harness.snapshot();
    List<WindowSummary> beforeRescale = new ArrayList<>(harness.output());
    // when: restored at parallelism 3 and fed the rest
    harness.restore(snapshot, 3);
    for (int index = half; index < input.clicks().size(); index++) {
      feed.click(input.clicks().get(index));
    }
    feed.watermark(Long.MAX_VALUE);
    // then
    List<WindowSummary> all = new ArrayList<>(beforeRescale);
    all.addAll(harness.output());
    assertThat(beforeRescale).isEmpty();
    assertThat(all)
        .containsExactlyInAnyOrderElementsOf(WindowReference.sessions(input.clicks(), GAP));
    harness.close();
  }

  @Test
  void when_lateClickJoinsAKeptSession_then_itMergesAndFiresAgainAsFlinkDoes() throws Exception {
    // given: session [1, 8) fired at watermark 9; kept until watermark 7 + 5
    try (OperatorTestHarness<Click, WindowSummary> harness =
        Harnesses.<WindowSummary>byUser(
                sessions(null, new CountAndSum(), new FromTotals<TimeWindow>(), 5), "heap")
            .open()) {
      harness.processElement(new Click("a", 1, 10), 1).processWatermark(9);
      // when: a late click merges into it; after its cleanup, a click that would have merged
      // into it finds no session and its own window [1, 8) is past cleanup too
      harness.processElement(new Click("a", 0, 20), 0);
      harness.processWatermark(12);
      harness.processElement(new Click("a", 1, 40), 1);
      // then
      assertThat(harness.output())
          .containsExactly(
              new WindowSummary("a", 1, 8, 1, 10), new WindowSummary("a", 0, 8, 2, 30));
      assertThat(harness.sideOutput(LATE)).containsExactly(new Click("a", 1, 40));
    }
  }

  @Test
  void when_clickIsLateAloneButBridgesToAnOpenSession_then_theSessionTakesIt() throws Exception {
    // given: no lateness; session [20, 27) is open at watermark 18
    try (OperatorTestHarness<Click, WindowSummary> harness =
        Harnesses.<WindowSummary>byUser(
                sessions(null, new CountAndSum(), new FromTotals<TimeWindow>(), 0), "heap")
            .open()) {
      harness.processElement(new Click("a", 20, 1), 20).processWatermark(18);
      // when: [13, 20) alone would be past its cleanup, but it touches [20, 27)
      harness.processElement(new Click("a", 13, 2), 13);
      harness.processWatermark(Long.MAX_VALUE);
      // then
      assertThat(harness.output()).containsExactly(new WindowSummary("a", 13, 27, 2, 3));
      assertThat(harness.sideOutput(LATE)).isEmpty();
    }
  }

  @ParameterizedTest(name = "{0}")
  @ValueSource(strings = {"heap", "rocksdb"})
  void when_processingTimeSessionsGoQuiet_then_eachFiresWithItsClicks(String backend)
      throws Exception {
    // given: clicks arriving at their time, on processing time
    List<Click> clicks = new ArrayList<>(ClickStream.random(25, 20, 3, 10, 3).clicks());
    clicks.sort(Comparator.comparingLong(Click::time));
    OperatorSpec.Window spec =
        new OperatorSpec.Window(
            ProcessingTimeSessionWindows.withGap(Duration.ofMillis(GAP)),
            null,
            null,
            new FromClicks(),
            0,
            null);
    try (OperatorTestHarness<Click, WindowSummary> harness =
        Harnesses.<WindowSummary>byUser(spec, backend)
            .parallelism(2)
            .restoreAfterEveryInput()
            .open()) {
      // when
      for (Click click : clicks) {
        harness.setProcessingTime(click.time()).processElement(click);
      }
      harness.setProcessingTime(1_000_000);
      // then
      assertThat(harness.output())
          .containsExactlyInAnyOrderElementsOf(WindowReference.sessions(clicks, GAP));
    }
  }
}
