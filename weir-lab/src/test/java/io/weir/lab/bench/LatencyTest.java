package io.weir.lab.bench;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.RepeatedTest;
import org.junit.jupiter.api.RepetitionInfo;
import org.junit.jupiter.api.Test;

class LatencyTest {
  @RepeatedTest(20)
  void when_sendAndCommitTimesGiven_then_percentilesMatchAPlainLoop(RepetitionInfo repetition) {
    // given: paced send times, commit times seen in steps (as a checkpoint covers many events),
    // and some events without one side, as at the edges of a run
    Random random = new Random(repetition.getCurrentRepetition());
    int events = 1 + random.nextInt(5_000);
    long[] sent = new long[events];
    long[] committed = new long[events];
    long now = 1_000_000_000L;
    for (int i = 0; i < events; i++) {
      now += random.nextInt(2_000_000);
      sent[i] = random.nextInt(50) == 0 ? 0 : now;
    }
    long commit = now;
    for (int i = events - 1; i >= 0; i--) {
      if (random.nextInt(200) == 0) {
        commit -= random.nextInt(100_000_000);
      }
      committed[i] = random.nextInt(50) == 0 ? 0 : Math.max(commit, now) + random.nextInt(1_000);
    }

    // when
    Latency latency = Latency.of(sent, committed);

    // then
    List<Double> millis = new ArrayList<>();
    for (int i = 0; i < events; i++) {
      if (sent[i] != 0 && committed[i] != 0) {
        millis.add((committed[i] - sent[i]) / 1e6);
      }
    }
    if (millis.isEmpty()) {
      assertThat(latency.p50Millis()).isNaN();
      return;
    }
    assertThat(latency.p50Millis()).isCloseTo(nearestRank(millis, 50), within(1e-9));
    assertThat(latency.p99Millis()).isCloseTo(nearestRank(millis, 99), within(1e-9));
  }

  @Test
  void when_hundredEventsOneToHundredMillis_then_p50IsFiftyAndP99NinetyNine() {
    // given: event i committed i + 1 ms after it was sent, in reverse order of latency
    long[] sent = new long[100];
    long[] committed = new long[100];
    for (int i = 0; i < 100; i++) {
      sent[i] = 1_000_000_000L + i;
      committed[i] = sent[i] + (100 - i) * 1_000_000L;
    }

    // when
    Latency latency = Latency.of(sent, committed);

    // then
    assertThat(latency.p50Millis()).isEqualTo(50.0);
    assertThat(latency.p99Millis()).isEqualTo(99.0);
  }

  /**
   * The smallest value that at least {@code percent} % of the values do not exceed, by counting.
   */
  private static double nearestRank(List<Double> values, int percent) {
    for (double candidate : values) {
      long atOrBelow = values.stream().filter(value -> value <= candidate).count();
      long below = values.stream().filter(value -> value < candidate).count();
      if (atOrBelow * 100 >= (long) percent * values.size()
          && below * 100 < (long) percent * values.size()) {
        return candidate;
      }
    }
    throw new AssertionError("no value has rank " + percent + " %");
  }
}
