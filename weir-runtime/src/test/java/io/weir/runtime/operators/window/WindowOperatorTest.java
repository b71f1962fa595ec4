package io.weir.runtime.operators.window;

import static org.assertj.core.api.Assertions.assertThat;

import io.weir.api.functions.KeySelector;
import io.weir.api.functions.OutputTag;
import io.weir.api.graph.OperatorSpec;
import io.weir.api.windowing.EventTimeSessionWindows;
import io.weir.api.windowing.SlidingEventTimeWindows;
import io.weir.api.windowing.TumblingEventTimeWindows;
import io.weir.api.windowing.TumblingProcessingTimeWindows;
import io.weir.runtime.operators.WindowOperator;
import io.weir.runtime.operators.window.OperatorHarness.Emitted;
import io.weir.runtime.state.OperatorSubtaskState;
import java.time.Duration;
import org.junit.jupiter.api.Test;

class WindowOperatorTest {
  private static final OutputTag<Reading> LATE = new OutputTag<>("late");

  private static OperatorSpec.Window tumblingSum(long lateness, OutputTag<Reading> lateOutput) {
    return new OperatorSpec.Window(
        TumblingEventTimeWindows.of(Duration.ofMillis(10)),
        (Reading a, Reading b) -> Reading.sum(a, b),
        null,
        lateness,
        lateOutput);
  }

  private static OperatorHarness<String> harness(OperatorSpec.Window spec) throws Exception {
    KeySelector<Reading, String> byKey = Reading::key;
    return new OperatorHarness<>(spec, byKey);
  }

  @Test
  void when_watermarkPassesWindowEnd_then_tumblingReduceEmitsSumAtMaxTimestamp() throws Exception {
    // given
    OperatorHarness<String> harness = harness(tumblingSum(0, null));
    harness.process(Reading.of("a", 1), 1).process(Reading.of("a", 2), 9);
    harness.process(Reading.of("b", 5), 3).process(Reading.of("a", 100), 10);
    // when: event time reaches 8, then 9 (the end of [0, 10))
    harness.watermark(8);
    assertThat(harness.output).isEmpty();
    harness.watermark(9);
    // then
    assertThat(harness.output)
        .containsExactlyInAnyOrder(
            new Emitted(Reading.of("a", 3), 9), new Emitted(Reading.of("b", 5), 9));
    assertThat(harness.watermarks).containsExactly(8L, 9L);
  }

  @Test
  void when_slidingWindowsAggregate_then_eachRecordCountsInEveryWindowItFallsIn() throws Exception {
    // given: windows of 10 every 5
    OperatorHarness<String> harness =
        harness(
            new OperatorSpec.Window(
                SlidingEventTimeWindows.of(Duration.ofMillis(10), Duration.ofMillis(5)),
                null,
                new Reading.CountAndSum(),
                0,
                null));
    harness.process(Reading.of("a", 1), 2).process(Reading.of("a", 10), 7);
    harness.process(Reading.of("a", 100), 12);
    // when
    harness.watermark(Long.MAX_VALUE);
    // then: [-5,5) [0,10) [5,15) [10,20)
    assertThat(harness.output)
        .containsExactly(
            new Emitted("a:1:1", 4),
            new Emitted("a:2:11", 9),
            new Emitted("a:2:110", 14),
            new Emitted("a:1:100", 19));
  }

  @Test
  void when_lateRecordWithinAllowedLateness_then_windowFiresAgainWithUpdatedResult()
      throws Exception {
    // given: a fired window [0, 10) with lateness 5
    OperatorHarness<String> harness = harness(tumblingSum(5, LATE));
    harness.process(Reading.of("a", 1), 1).watermark(10);
    assertThat(harness.values()).containsExactly(Reading.of("a", 1));
    // when: two late records still within the lateness
    harness.process(Reading.of("a", 2), 5).process(Reading.of("a", 4), 9);
    // then: each re-fires the window with its updated sum
    assertThat(harness.output)
        .containsExactly(
            new Emitted(Reading.of("a", 1), 9),
            new Emitted(Reading.of("a", 3), 9),
            new Emitted(Reading.of("a", 7), 9));
    assertThat(harness.sideOutput).isEmpty();
  }

  @Test
  void when_recordIsLaterThanAllowedLateness_then_itGoesToTheSideOutput() throws Exception {
    // given: window [0, 10) with lateness 5 is cleaned up at watermark 14
    OperatorHarness<String> harness = harness(tumblingSum(5, LATE));
    harness.process(Reading.of("a", 1), 1).watermark(13);
    harness.process(Reading.of("a", 2), 2);
    harness.watermark(14);
    // when
    harness.process(Reading.of("a", 4), 3);
    // then
    assertThat(harness.sideOutput).containsExactly(new Emitted(Reading.of("a", 4), 3));
    assertThat(harness.values()).containsExactly(Reading.of("a", 1), Reading.of("a", 3));
    assertThat(harness.snapshot().keyGroups()).as("state and timers are cleaned up").isEmpty();
  }

  @Test
  void when_recordIsLateWithoutSideOutput_then_itIsDroppedAndCounted() throws Exception {
    // given
    OperatorHarness<String> harness = harness(tumblingSum(0, null));
    harness.process(Reading.of("a", 1), 1).watermark(20);
    // when: [0, 10) is gone; [20, 30) is still open
    harness.process(Reading.of("a", 2), 9).process(Reading.of("a", 3), 15);
    harness.process(Reading.of("a", 4), 25);
    harness.watermark(Long.MAX_VALUE);
    // then
    assertThat(((WindowOperator) harness.operator()).lateRecordsDropped()).isEqualTo(2);
    assertThat(harness.values()).containsExactly(Reading.of("a", 1), Reading.of("a", 4));
    assertThat(harness.sideOutput).isEmpty();
  }

  @Test
  void when_restoredFromSnapshot_then_windowContentsAndTimersSurvive() throws Exception {
    // given: two keys with open windows and lateness 10
    OperatorHarness<String> harness = harness(tumblingSum(10, LATE));
    harness.process(Reading.of("a", 1), 1).process(Reading.of("b", 2), 12);
    harness.process(Reading.of("a", 3), 4);
    OperatorSubtaskState snapshot = harness.snapshot();
    harness.process(Reading.of("a", 1000), 5);
    // when: a fresh operator restores the snapshot and event time moves on
    OperatorHarness<String> restored = harness.restore(snapshot);
    restored.watermark(9);
    restored.process(Reading.of("a", 10), 8);
    restored.watermark(Long.MAX_VALUE);
    // then
    assertThat(restored.output)
        .containsExactly(
            new Emitted(Reading.of("a", 4), 9),
            new Emitted(Reading.of("a", 14), 9),
            new Emitted(Reading.of("b", 2), 19));
  }

  @Test
  void when_sessionMergesAwayAnEndAnotherSessionIsClearedAt_then_thatSessionIsStillCleared()
      throws Exception {
    // given: sessions of gap 10 with lateness 20: [0, 10), cleared at 29, and [20, 30), firing at
    // 29
    OperatorHarness<String> harness =
        harness(
            new OperatorSpec.Window(
                EventTimeSessionWindows.withGap(Duration.ofMillis(10)),
                null,
                new Reading.CountAndSum(),
                20,
                LATE));
    harness.process(Reading.of("a", 1), 0).process(Reading.of("a", 2), 20);
    // when: a record moves the first session's end to 14; its timers at 9 and 29 go, but 29 is
    // the second session's end and stays
    harness.process(Reading.of("a", 4), 5);
    harness.watermark(29);
    // then: both fire, and both are cleared by the time the lateness has passed
    assertThat(harness.output).containsExactly(new Emitted("a:2:5", 14), new Emitted("a:1:2", 29));
    harness.watermark(49);
    assertThat(harness.snapshot().keyGroups()).as("state and timers are cleaned up").isEmpty();
  }

  @Test
  void when_processingTimeReachesWindowEnd_then_processingTimeWindowFires() throws Exception {
    // given
    OperatorHarness<String> harness =
        harness(
            new OperatorSpec.Window(
                TumblingProcessingTimeWindows.of(Duration.ofMillis(100)),
                (Reading a, Reading b) -> Reading.sum(a, b),
                null,
                0,
                null));
    harness.time.advanceTo(10);
    harness.process(Reading.of("a", 1), Long.MIN_VALUE).process(Reading.of("a", 2), 5);
    // when
    harness.time.advanceTo(98);
    assertThat(harness.output).isEmpty();
    harness.time.advanceTo(120);
    // then
    assertThat(harness.output).containsExactly(new Emitted(Reading.of("a", 3), 99));
    harness.process(Reading.of("a", 4), Long.MIN_VALUE);
    // and the window still open fires at the end of input
    harness.operator().endInput();
    assertThat(harness.values()).containsExactly(Reading.of("a", 3), Reading.of("a", 4));
  }
}
