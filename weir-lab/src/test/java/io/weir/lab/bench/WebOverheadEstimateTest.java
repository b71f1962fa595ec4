package io.weir.lab.bench;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** The web server's overhead from runs with and without it: medians, percent, spread. */
class WebOverheadEstimateTest {
  @Test
  void when_runsWithTheServerAreSlower_then_theOverheadIsTheDifferenceOfMediansInPercent() {
    // given: medians 98,000 with and 100,000 without
    WebOverheadEstimate estimate =
        new WebOverheadEstimate(
            List.of(97_000.0, 98_000.0, 99_000.0, 96_000.0, 98_500.0),
            List.of(100_000.0, 99_500.0, 101_000.0, 100_500.0, 99_000.0));

    // when
    double overhead = estimate.overheadPercent();
    double[] interval = estimate.interval95();

    // then
    assertThat(overhead).isEqualTo(2.0);
    assertThat(interval[0]).isLessThanOrEqualTo(overhead).isPositive();
    assertThat(interval[1]).isGreaterThanOrEqualTo(overhead).isLessThan(5.0);
    assertThat(WebOverheadEstimate.quartiles(estimate.withWeb()))
        .containsExactly(97_000.0, 98_000.0, 98_500.0);
    // the same runs give the same interval: the resampling's seed is fixed
    assertThat(new WebOverheadEstimate(estimate.withWeb(), estimate.withoutWeb()).interval95())
        .containsExactly(interval);
  }

  @Test
  void when_reported_then_theTableAndJsonGiveTheOverheadAndEachRun() {
    // given
    WebOverheadEstimate estimate =
        new WebOverheadEstimate(List.of(95_000.0, 105_000.0), List.of(100_000.0, 100_000.0));

    // when
    ByteArrayOutputStream printed = new ByteArrayOutputStream();
    WebOverheadBench.print(estimate, new PrintStream(printed, true, StandardCharsets.UTF_8));
    Map<String, Object> json = WebOverheadBench.json(estimate);

    // then: equal medians, a spread on either side of 0
    assertThat(printed.toString(StandardCharsets.UTF_8))
        .contains("with web")
        .contains("--no-web")
        .contains("overhead: 0.00 %");
    assertThat(json).containsEntry("web_overhead_pct", 0.0);
    @SuppressWarnings("unchecked")
    List<Double> interval = (List<Double>) json.get("web_overhead_pct_interval_95");
    assertThat(interval.get(0)).isNegative();
    assertThat(interval.get(1)).isPositive();
    @SuppressWarnings("unchecked")
    Map<String, Object> with = (Map<String, Object>) json.get("with_web");
    assertThat(with).containsEntry("runs_records_per_s", List.of(95_000L, 105_000L));
    assertThat(with).containsEntry("median_records_per_s", 100_000L);
  }

  @Test
  void when_everyRunOfOneSideFailed_then_noOverheadIsGiven() {
    WebOverheadEstimate estimate = new WebOverheadEstimate(List.of(), List.of(100_000.0));

    assertThat(estimate.measured()).isFalse();
    assertThat(WebOverheadBench.json(estimate)).containsEntry("web_overhead_pct", null);
  }
}
