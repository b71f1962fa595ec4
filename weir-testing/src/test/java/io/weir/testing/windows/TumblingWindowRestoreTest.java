package io.weir.testing.windows;

import static org.assertj.core.api.Assertions.assertThat;

import io.weir.api.graph.OperatorSpec;
import io.weir.api.windowing.TimeWindow;
import io.weir.api.windowing.TumblingEventTimeWindows;
import io.weir.testing.OperatorSnapshot;
import io.weir.testing.OperatorTestHarness;
import io.weir.testing.windows.WindowSummary.CountAndSum;
import io.weir.testing.windows.WindowSummary.FromTotals;
import java.time.Duration;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * Tumbling windows restored from a checkpoint taken while they are open. A window registers its
 * timers with its first record only, so the records that join it after the restore register none:
 * the window must still fire from the timer the checkpoint carried, exactly once, with every
 * record.
 */
class TumblingWindowRestoreTest {
  private static final long SIZE = 25;

  private static OperatorSpec.Window countAndSum() {
    return new OperatorSpec.Window(
        TumblingEventTimeWindows.of(Duration.ofMillis(SIZE)),
        null,
        new CountAndSum(),
        new FromTotals<TimeWindow>(),
        0,
        null);
  }

  @ParameterizedTest(name = "{0}, restored at parallelism {1}")
  @CsvSource({"heap, 2", "heap, 3", "rocksdb, 2", "rocksdb, 3"})
  void when_restoredFromCheckpointMidWindow_then_openWindowsFireOnceWithEveryRecord(
      String backend, int restoredParallelism) throws Exception {
    // given: many clicks per user and window, snapshotted in the middle of a window, after which
    // more clicks join the open windows before the process dies
    ClickStream input = ClickStream.random(31, 12, 3, SIZE, 60);
    int checkpointed = midWindowIndex(input);
    int crashed = nextWatermarkIndex(input, checkpointed);
    try (OperatorTestHarness<Click, WindowSummary> harness =
        Harnesses.<WindowSummary>byUser(countAndSum(), backend).parallelism(2).open()) {
      ClickStream.ClickFeed feed = Harnesses.feed(harness);
      feedRange(input, feed, 0, checkpointed);
      OperatorSnapshot snapshot = harness.snapshot();
      for (int index = checkpointed; index < crashed; index++) {
        feed.click(input.clicks().get(index));
      }
      harness.crash();
      // when: restored (and rescaled) from the checkpoint, the clicks after it come again
      harness.restore(snapshot, restoredParallelism);
      feedRange(input, feed, checkpointed, input.clicks().size());
      feed.watermark(Long.MAX_VALUE);
      // then
      assertThat(harness.output())
          .containsExactlyInAnyOrderElementsOf(WindowReference.tumbling(input.clicks(), SIZE));
      assertThat(harness.outputWithTimestamps())
          .allSatisfy(
              emitted -> assertThat(emitted.timestamp()).isEqualTo(emitted.value().end() - 1));
    }
  }

  /** Feeds the clicks at {@code from} up to {@code to}, each followed by its watermark, if any. */
  private static void feedRange(ClickStream input, ClickStream.ClickFeed feed, int from, int to)
      throws Exception {
    for (int index = from; index < to; index++) {
      feed.click(input.clicks().get(index));
      Long watermark = input.watermarkAfter().get(index);
      if (watermark != null) {
        feed.watermark(watermark);
      }
    }
  }

  /** An index about halfway that is not the first click of a window: its window is open. */
  private static int midWindowIndex(ClickStream input) {
    int index = input.clicks().size() / 2;
    while (input.watermarkAfter().get(index - 1) != null) {
      index++;
    }
    return index;
  }

  /**
   * The index of the first click from {@code from} on that a watermark follows: the clicks before
   * it join windows the checkpoint holds open, without a window firing.
   */
  private static int nextWatermarkIndex(ClickStream input, int from) {
    int index = from;
    while (input.watermarkAfter().get(index) == null) {
      index++;
    }
    return index;
  }
}
