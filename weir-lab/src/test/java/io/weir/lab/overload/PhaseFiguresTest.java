package io.weir.lab.overload;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.util.List;
import java.util.stream.IntStream;
import org.junit.jupiter.api.Test;

/** A recovery phase's drain: whether the lag fell to the drained level, and how long it took. */
class PhaseFiguresTest {
  private static final long PHASE_START_MILLIS = 10_000;
  private static final long DRAINED_LAG = 625;
  private static final OverloadPlan.Phase RECOVERY =
      new OverloadPlan.Phase(
          2, PhaseKind.RECOVERY, Duration.ofSeconds(10), Duration.ofSeconds(50), 125);

  @Test
  void when_theLagFallsToTheDrainedLevel_then_theDrainTimeCountsFromThePhaseStart() {
    PhaseFigures figures =
        PhaseFigures.of(
            RECOVERY, PHASE_START_MILLIS, looks(5_000, -1, 640, 600, 90), List.of(), DRAINED_LAG);

    assertThat(figures.drained()).isTrue();
    assertThat(figures.drainMillis()).isEqualTo(4_000);
    assertThat(figures.report()).containsEntry("drain_ms", 4_000L);
    assertThat(figures.line()).contains("drained=yes in 4.0 s");
  }

  @Test
  void when_theLagStaysAboveTheDrainedLevel_then_thePhaseDidNotDrain() {
    PhaseFigures figures =
        PhaseFigures.of(
            RECOVERY, PHASE_START_MILLIS, looks(5_000, 3_000, 880), List.of(), DRAINED_LAG);

    assertThat(figures.drained()).isFalse();
    assertThat(figures.drainMillis()).isEqualTo(-1);
    assertThat(figures.report()).doesNotContainKey("drain_ms");
    assertThat(figures.line()).contains("drained=no");
  }

  /** A look a second, from a second after the phase's start, with these lags (-1: unread). */
  private static List<OverloadWatch.Sample> looks(long... lags) {
    return IntStream.range(0, lags.length)
        .mapToObj(
            i ->
                new OverloadWatch.Sample(
                    PHASE_START_MILLIS + (i + 1) * 1_000L, 2, 1, 0, lags[i], 0, 0, 0))
        .toList();
  }
}
