package io.weir.cli.bench;

import static org.assertj.core.api.Assertions.assertThat;

import io.weir.lab.bench.BenchTable;
import io.weir.lab.bench.KafkaBench;
import io.weir.lab.bench.Pipeline;
import io.weir.lab.bench.Spread;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Map;
import java.util.OptionalInt;
import org.junit.jupiter.api.Test;

/** The Kafka benchmark's report over repeated runs: medians, ranges and the launch ratio. */
class BenchTableTest {
  @Test
  void when_threeRunsEach_then_reportsMediansRangesAndTheLaunchRatio() {
    // given
    BenchTable table = new BenchTable(1000, 4, 2, 3);
    List<Double> rawSeconds = List.of(7.0, 9.0, 8.0);
    List<Double> weirSeconds = List.of(10.0, 6.0, 8.5);
    for (int i = 0; i < 3; i++) {
      table.add(run(Pipeline.RAW, i + 1, rawSeconds.get(i), 3.0));
      table.add(run(Pipeline.WEIR_EXACTLY_ONCE, i + 1, weirSeconds.get(i), 1.5));
    }

    // when
    Map<String, Object> json = table.json();
    ByteArrayOutputStream printed = new ByteArrayOutputStream();
    table.print(new PrintStream(printed, true, StandardCharsets.UTF_8));

    // then
    @SuppressWarnings("unchecked")
    Map<String, Object> weir =
        (Map<String, Object>) ((Map<String, Object>) json.get("runs")).get("weir_exactly_once");
    assertThat(weir)
        .containsEntry("launch_to_done_s", 8.5)
        .containsEntry("launch_to_done_s_range", List.of(6.0, 10.0))
        .containsEntry("first_commit_after_launch_s", 1.5)
        .containsEntry("cpu_s", 17.0)
        .containsEntry("peak_rss_mib", 300.0);
    assertThat((List<?>) weir.get("each_run")).hasSize(3);
    assertThat(json).containsEntry("ratio_exactly_once_to_raw_launch", 0.94);
    assertThat(printed.toString(StandardCharsets.UTF_8)).contains("8.50 (6.00–10.00)");
  }

  @Test
  void when_sessionRuns_then_reportsTheirRowAndTheirLaunchRatio() {
    // given
    BenchTable table = new BenchTable(1000, 4, 2, 2);
    for (int repetition = 1; repetition <= 2; repetition++) {
      double seconds = 4.0 + 2 * repetition;
      table.add(run(Pipeline.RAW, repetition, seconds, 2.5));
      table.add(run(Pipeline.WEIR_EXACTLY_ONCE, repetition, seconds + 1, 3.0));
      table.add(run(Pipeline.WEIR_SESSION, repetition, seconds - 3, 1.4));
    }

    // when
    Map<String, Object> json = table.json();
    ByteArrayOutputStream printed = new ByteArrayOutputStream();
    table.print(new PrintStream(printed, true, StandardCharsets.UTF_8));

    // then
    @SuppressWarnings("unchecked")
    Map<String, Object> session =
        (Map<String, Object>) ((Map<String, Object>) json.get("runs")).get("weir_session");
    assertThat(session)
        .containsEntry("launch_to_done_s", 4.0)
        .containsEntry("first_commit_after_launch_s", 1.4);
    assertThat(json)
        .containsEntry("ratio_exactly_once_to_raw_launch", 0.88)
        .containsEntry("ratio_session_to_raw_launch", 1.75);
    assertThat(printed.toString(StandardCharsets.UTF_8))
        .contains("weir_session         4.00 (3.00–5.00)")
        .contains("on a session cluster / raw, from launch: 1.75")
        .doesNotContain("NaN");
  }

  @Test
  void when_noSessionRuns_then_noSessionRatio() {
    BenchTable table = new BenchTable(1000, 4, 2, 1);
    table.add(run(Pipeline.RAW, 1, 6.0, 2.5));
    table.add(run(Pipeline.WEIR_EXACTLY_ONCE, 1, 7.0, 3.0));

    assertThat(table.json()).doesNotContainKey("ratio_session_to_raw_launch");
  }

  @Test
  void when_theMachineDriftsDuringTheBench_then_theRunByRunRatiosFollowEachRepetition() {
    // given: Weir 10 % slower than the loop in the two repetitions on a slowing machine, and
    // faster in one on a fast phase; a repetition that Weir did not finish pairs with nothing
    BenchTable table = new BenchTable(1000, 4, 2, 4);
    double[][] rawAndWeir = {{4.0, 4.4}, {8.0, 8.8}, {6.0, 5.0}, {3.0, Double.NaN}};
    for (int i = 0; i < rawAndWeir.length; i++) {
      table.add(run(Pipeline.RAW, i + 1, rawAndWeir[i][0], 2.0));
      if (!Double.isNaN(rawAndWeir[i][1])) {
        table.add(run(Pipeline.WEIR_EXACTLY_ONCE, i + 1, rawAndWeir[i][1], 1.0));
      }
    }

    // when
    Map<String, Object> json = table.json();
    ByteArrayOutputStream printed = new ByteArrayOutputStream();
    table.print(new PrintStream(printed, true, StandardCharsets.UTF_8));

    // then: the medians (5.0 against 5.0, CPU 10.0 against 10.0) hide what each pair shows
    assertThat(json)
        .containsEntry("ratio_exactly_once_to_raw_launch", 1.0)
        .containsEntry("ratio_exactly_once_to_raw_launch_paired", 0.91)
        .containsEntry("ratio_cpu_exactly_once_to_raw", 1.0)
        .containsEntry("ratio_cpu_exactly_once_to_raw_paired", 1.1);
    assertThat(printed.toString(StandardCharsets.UTF_8))
        .contains("from launch (raw time / weir time): 1.00; run by run (median of each")
        .contains("CPU s (weir / raw): 1.00; run by run: 1.10");
  }

  @Test
  void when_evenNumberOfRuns_then_medianIsTheMeanOfTheMiddleTwo() {
    assertThat(Spread.of(List.of(4.0, 1.0, 3.0, 2.0))).isEqualTo(new Spread(2.5, 1.0, 4.0));
  }

  @Test
  void when_aWeirRunRestarted_then_itsRestartsAreReportedAndTheLoopHasNone() {
    BenchTable table = new BenchTable(1000, 4, 2, 2);
    table.add(run(Pipeline.RAW, 1, 6.0, 2.5));
    table.add(run(Pipeline.WEIR_EXACTLY_ONCE, 1, 7.0, 3.0));
    table.add(run(Pipeline.RAW, 2, 6.0, 2.5));
    table.add(restarted(run(Pipeline.WEIR_EXACTLY_ONCE, 2, 9.0, 3.0), 1));

    Map<String, Object> json = table.json();
    ByteArrayOutputStream printed = new ByteArrayOutputStream();
    table.print(new PrintStream(printed, true, StandardCharsets.UTF_8));

    @SuppressWarnings("unchecked")
    Map<String, Map<String, Object>> runs = (Map<String, Map<String, Object>>) json.get("runs");
    assertThat(runs.get("weir_exactly_once")).containsEntry("restarts", 1);
    @SuppressWarnings("unchecked")
    List<Map<String, Object>> eachRun =
        (List<Map<String, Object>>) runs.get("weir_exactly_once").get("each_run");
    assertThat(eachRun).extracting(each -> each.get("restarts")).containsExactly(0, 1);
    assertThat(runs.get("raw")).doesNotContainKey("restarts");
    assertThat(printed.toString(StandardCharsets.UTF_8))
        .containsPattern("weir_exactly_once .* 0 +0 +1\\R")
        .containsPattern("raw .* 0 +0 +-\\R");
  }

  private static KafkaBench.RunResult run(
      Pipeline pipeline, int repetition, double seconds, double firstCommit) {
    return new KafkaBench.RunResult(
        pipeline,
        repetition,
        1000 / seconds,
        seconds,
        firstCommit,
        seconds * 2,
        null,
        300,
        0,
        0,
        pipeline == Pipeline.RAW ? OptionalInt.empty() : OptionalInt.of(0));
  }

  private static KafkaBench.RunResult restarted(KafkaBench.RunResult run, int restarts) {
    return new KafkaBench.RunResult(
        run.pipeline(),
        run.repetition(),
        run.recordsPerSecond(),
        run.launchToDoneSeconds(),
        run.firstCommitAfterLaunchSeconds(),
        run.cpuSeconds(),
        run.latency(),
        run.peakResidentMebibytes(),
        run.lost(),
        run.duplicated(),
        OptionalInt.of(restarts));
  }
}
