package io.weir.lab.bench;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import io.weir.lab.bench.WebOverheadEstimate.Measure;
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
            Measure.RECORDS_PER_SECOND,
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
    assertThat(
            new WebOverheadEstimate(
                    Measure.RECORDS_PER_SECOND, estimate.withWeb(), estimate.withoutWeb())
                .interval95())
        .containsExactly(interval);
  }

  @Test
  void when_theMachineSpeedDriftsBetweenPairs_then_thePairedEstimateStillSeesTheCost() {
    // given: each pair's run with the server 2 % slower, the pairs at very different speeds
    WebOverheadEstimate estimate =
        new WebOverheadEstimate(
            Measure.RECORDS_PER_SECOND,
            List.of(98_000.0, 49_000.0, 147_000.0, 29_400.0),
            List.of(100_000.0, 50_000.0, 150_000.0, 30_000.0));

    // when
    double[] unpaired = estimate.interval95();
    double[] paired = estimate.pairedInterval95();

    // then
    assertThat(estimate.paired()).isTrue();
    assertThat(estimate.pairedOverheadPercent()).isCloseTo(2.0, within(1e-9));
    assertThat(paired[0]).isCloseTo(2.0, within(1e-9));
    assertThat(paired[1]).isCloseTo(2.0, within(1e-9));
    assertThat(unpaired[1] - unpaired[0]).isGreaterThan(50.0);
  }

  @Test
  void when_runsWithTheServerUseMoreCpu_then_theOverheadIsTheCpuAddedInPercent() {
    // given: medians 10.5 CPU seconds with and 10 without
    WebOverheadEstimate estimate =
        new WebOverheadEstimate(
            Measure.CPU_SECONDS, List.of(10.4, 10.5, 10.6), List.of(9.9, 10.0, 10.1));

    // then: a cost is positive whichever way its figure goes
    assertThat(estimate.overheadPercent()).isCloseTo(5.0, within(1e-9));
  }

  @Test
  void when_reported_then_theTablesAndJsonGiveEachFigureItsOverheadAndEachRun() {
    // given: equal medians from first input, slower from launch, more CPU with the server
    WebOverheadBench.Estimates estimates =
        new WebOverheadBench.Estimates(
            List.of(95_000.0, 105_000.0),
            List.of(100_000.0, 100_000.0),
            List.of(45_000.0, 45_000.0),
            List.of(50_000.0, 50_000.0),
            List.of(11.0, 11.0),
            List.of(10.0, 10.0));

    // when
    ByteArrayOutputStream printed = new ByteArrayOutputStream();
    WebOverheadBench.print(estimates, new PrintStream(printed, true, StandardCharsets.UTF_8));
    Map<String, Object> json = WebOverheadBench.json(estimates);

    // then
    assertThat(printed.toString(StandardCharsets.UTF_8))
        .contains("records/s from first input")
        .contains("records/s from launch")
        .contains("CPU seconds")
        .contains("with web")
        .contains("--no-web")
        .contains("overhead: 0.00 %")
        .contains("overhead: 10.00 % of the throughput without")
        .contains("overhead: 10.00 % more CPU than without")
        .contains("paired: 0.00 % (median of the 2 pairs' overheads");
    assertThat(json).containsEntry("web_overhead_measured_from", "first input");
    assertThat(json).containsEntry("web_overhead_pct", 0.0);
    assertThat(json).containsEntry("web_overhead_from_launch_pct", 10.0);
    assertThat(json).containsEntry("web_cpu_overhead_pct", 10.0);
    assertThat(json).containsEntry("web_overhead_paired_pct", 0.0);
    assertThat(json).containsEntry("web_cpu_overhead_paired_pct", 10.0);
    @SuppressWarnings("unchecked")
    List<Double> interval = (List<Double>) json.get("web_overhead_pct_interval_95");
    assertThat(interval.get(0)).isNegative();
    assertThat(interval.get(1)).isPositive();
    @SuppressWarnings("unchecked")
    Map<String, Object> with = (Map<String, Object>) json.get("with_web");
    assertThat(with).containsEntry("runs_records_per_s", List.of(95_000L, 105_000L));
    assertThat(with).containsEntry("median_records_per_s", 100_000L);
    assertThat(with).containsEntry("median_records_per_s_from_launch", 45_000L);
    assertThat(with).containsEntry("runs_cpu_seconds", List.of(11.0, 11.0));
  }

  @Test
  void when_everyRunOfOneSideFailed_then_noOverheadIsGiven() {
    WebOverheadBench.Estimates estimates =
        new WebOverheadBench.Estimates(
            List.of(), List.of(100_000.0), List.of(), List.of(50_000.0), List.of(), List.of(9.0));

    assertThat(estimates.fromFirstInput().measured()).isFalse();
    assertThat(WebOverheadBench.json(estimates))
        .containsEntry("web_overhead_pct", null)
        .containsEntry("web_overhead_from_launch_pct", null)
        .containsEntry("web_cpu_overhead_pct", null);
  }
}
