package io.weir.lab.bench;

import java.io.PrintStream;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.OptionalInt;
import java.util.function.ToDoubleFunction;

/**
 * The Kafka benchmark's results over the repeated runs: medians and ranges in a table for people,
 * and the same with every run's figures in a map for the JSON report.
 */
public final class BenchTable {
  private final long records;
  private final int partitions;
  private final int parallelism;
  private final int repeat;
  private final List<KafkaBench.RunResult> runs = new ArrayList<>();
  private final Map<Pipeline, String> failures = new LinkedHashMap<>();
  private KafkaBench.RecoveryResult recovery;

  public BenchTable(long records, int partitions, int parallelism, int repeat) {
    this.records = records;
    this.partitions = partitions;
    this.parallelism = parallelism;
    this.repeat = repeat;
  }

  public void add(KafkaBench.RunResult run) {
    runs.add(run);
  }

  public void failed(Pipeline pipeline, String reason) {
    failures.put(pipeline, reason);
  }

  public void recovery(KafkaBench.RecoveryResult result) {
    this.recovery = result;
  }

  /** Weir exactly-once median throughput over the plain loop's, or NaN when one did not run. */
  double ratio() {
    return medianRatio(
        Pipeline.WEIR_EXACTLY_ONCE, Pipeline.RAW, KafkaBench.RunResult::recordsPerSecond);
  }

  /**
   * The plain loop's median time from launch to done over Weir exactly-once's: above 1 when Weir is
   * done sooner. NaN when one of them did not run.
   */
  double launchRatio() {
    return launchRatio(Pipeline.WEIR_EXACTLY_ONCE);
  }

  private double launchRatio(Pipeline weir) {
    return medianRatio(Pipeline.RAW, weir, KafkaBench.RunResult::launchToDoneSeconds);
  }

  /**
   * {@link #launchRatio()} run by run: the median over the repetitions of the loop's time over Weir
   * exactly-once's in the same repetition, which ran right after it. A machine whose speed drifts
   * during a bench, as a shared one's does, moves both runs of a repetition alike, but can move the
   * two medians apart: compare benches by this one.
   */
  double pairedLaunchRatio() {
    return pairedRatio(
        Pipeline.RAW, Pipeline.WEIR_EXACTLY_ONCE, KafkaBench.RunResult::launchToDoneSeconds);
  }

  /** Weir exactly-once's median CPU over the loop's, or NaN when one did not run. */
  double cpuRatio() {
    return medianRatio(Pipeline.WEIR_EXACTLY_ONCE, Pipeline.RAW, KafkaBench.RunResult::cpuSeconds);
  }

  /** {@link #cpuRatio()} run by run, as {@link #pairedLaunchRatio()}. */
  double pairedCpuRatio() {
    return pairedRatio(Pipeline.WEIR_EXACTLY_ONCE, Pipeline.RAW, KafkaBench.RunResult::cpuSeconds);
  }

  /** The median of {@code figure} over {@code over}'s runs divided by that over {@code under}'s. */
  private double medianRatio(
      Pipeline over, Pipeline under, ToDoubleFunction<KafkaBench.RunResult> figure) {
    return spread(over, figure).median() / spread(under, figure).median();
  }

  /**
   * The median, over the repetitions in which both ran, of {@code figure} of {@code over} divided
   * by that of {@code under} in the same repetition; NaN when there is none.
   */
  private double pairedRatio(
      Pipeline over, Pipeline under, ToDoubleFunction<KafkaBench.RunResult> figure) {
    Map<Integer, KafkaBench.RunResult> underByRepetition = new HashMap<>();
    runsOf(under).forEach(run -> underByRepetition.putIfAbsent(run.repetition(), run));
    List<Double> ratios = new ArrayList<>();
    for (KafkaBench.RunResult numerator : runsOf(over)) {
      KafkaBench.RunResult denominator = underByRepetition.get(numerator.repetition());
      if (denominator != null) {
        ratios.add(figure.applyAsDouble(numerator) / figure.applyAsDouble(denominator));
      }
    }
    return Spread.of(ratios).median();
  }

  private List<KafkaBench.RunResult> runsOf(Pipeline pipeline) {
    return runs.stream().filter(run -> run.pipeline() == pipeline).toList();
  }

  private Spread spread(Pipeline pipeline, ToDoubleFunction<KafkaBench.RunResult> figure) {
    return Spread.of(runsOf(pipeline).stream().map(figure::applyAsDouble).toList());
  }

  private static Latency latencyOf(List<KafkaBench.RunResult> runs) {
    return runs.stream()
        .map(KafkaBench.RunResult::latency)
        .filter(Objects::nonNull)
        .findFirst()
        .orElse(null);
  }

  public void print(PrintStream out) {
    out.printf(
        "%,d records, %d partitions, Weir parallelism %d, checkpoints/transactions every 1 s,"
            + " %d run(s) each, medians (ranges)%n",
        records, partitions, parallelism, repeat);
    printFromLaunch(out);
    printFromFirstInput(out);
    failures.forEach(
        (pipeline, reason) -> out.printf("%-20s failed: %s%n", pipeline.key(), reason));
    out.printf(
        "weir exactly-once / raw, from launch (raw time / weir time): %.2f; run by run (median of"
            + " each repetition's): %.2f%n",
        launchRatio(), pairedLaunchRatio());
    out.printf(
        "weir exactly-once / raw, CPU s (weir / raw): %.2f; run by run: %.2f%n",
        cpuRatio(), pairedCpuRatio());
    out.printf("weir exactly-once / raw, records/s from first input: %.2f%n", ratio());
    if (!runsOf(Pipeline.WEIR_SESSION).isEmpty()) {
      out.printf(
          "weir exactly-once on a session cluster / raw, from launch: %.2f (its CPU s: the client's"
              + " and the cluster's during the run; its RSS: the client's peak plus the cluster"
              + " processes' peaks so far)%n",
          launchRatio(Pipeline.WEIR_SESSION));
    }
    if (recovery != null) {
      out.printf(
          "recovery after kill -9 (%,d records committed at the kill): first new committed output"
              + " %.0f ms after the kill, %.0f ms after the restart command; lost=%d"
              + " duplicated=%d%n",
          recovery.committedAtKill(),
          recovery.killToFirstNewCommitMillis(),
          recovery.restartToFirstNewCommitMillis(),
          recovery.lost(),
          recovery.duplicated());
    }
  }

  private void printFromLaunch(PrintStream out) {
    out.printf(
        "%-20s %-22s %-22s %-22s %-22s%n",
        "from launch", "launch to done s", "first commit s", "CPU s", "peak RSS MiB");
    for (Pipeline pipeline : Pipeline.values()) {
      if (runsOf(pipeline).isEmpty()) {
        continue;
      }
      out.printf(
          "%-20s %-22s %-22s %-22s %-22s%n",
          pipeline.key(),
          spread(pipeline, KafkaBench.RunResult::launchToDoneSeconds).format("%.2f"),
          spread(pipeline, KafkaBench.RunResult::firstCommitAfterLaunchSeconds).format("%.2f"),
          spread(pipeline, KafkaBench.RunResult::cpuSeconds).format("%.1f"),
          spread(pipeline, KafkaBench.RunResult::peakResidentMebibytes).format("%.0f"));
    }
  }

  private void printFromFirstInput(PrintStream out) {
    out.printf(
        "%-20s %-26s %9s %9s %8s %10s %8s%n",
        "from first input", "records/s", "p50 ms", "p99 ms", "lost", "duplicated", "restarts");
    for (Pipeline pipeline : Pipeline.values()) {
      List<KafkaBench.RunResult> of = runsOf(pipeline);
      if (of.isEmpty()) {
        continue;
      }
      Latency latency = latencyOf(of);
      OptionalInt restarts = restartsOf(of);
      out.printf(
          "%-20s %-26s %9s %9s %8d %10d %8s%n",
          pipeline.key(),
          spread(pipeline, KafkaBench.RunResult::recordsPerSecond).format("%,.0f"),
          // A session run has no latency run of its own.
          latency == null ? "-" : String.format("%.0f", latency.p50Millis()),
          latency == null ? "-" : String.format("%.0f", latency.p99Millis()),
          of.stream().mapToLong(KafkaBench.RunResult::lost).sum(),
          of.stream().mapToLong(KafkaBench.RunResult::duplicated).sum(),
          restarts.isPresent() ? Integer.toString(restarts.getAsInt()) : "-");
    }
  }

  /** The restarts of the runs that reported theirs; none when no run did (the loop's). */
  private static OptionalInt restartsOf(List<KafkaBench.RunResult> of) {
    return of.stream()
        .map(KafkaBench.RunResult::restarts)
        .filter(OptionalInt::isPresent)
        .mapToInt(OptionalInt::getAsInt)
        .reduce(Integer::sum);
  }

  public Map<String, Object> json() {
    Map<String, Object> byName = new LinkedHashMap<>();
    for (Pipeline pipeline : Pipeline.values()) {
      List<KafkaBench.RunResult> of = runsOf(pipeline);
      if (!of.isEmpty()) {
        byName.put(pipeline.key(), pipelineJson(pipeline, of));
      }
    }
    failures.forEach((pipeline, reason) -> byName.put(pipeline.key(), Map.of("error", reason)));
    Map<String, Object> report = new LinkedHashMap<>();
    report.put("records", records);
    report.put("partitions", partitions);
    report.put("parallelism", parallelism);
    report.put("repeat", repeat);
    report.put("runs", byName);
    report.put("ratio_exactly_once_to_raw", hundredths(ratio()));
    report.put("ratio_exactly_once_to_raw_launch", hundredths(launchRatio()));
    report.put("ratio_exactly_once_to_raw_launch_paired", hundredths(pairedLaunchRatio()));
    report.put("ratio_cpu_exactly_once_to_raw", hundredths(cpuRatio()));
    report.put("ratio_cpu_exactly_once_to_raw_paired", hundredths(pairedCpuRatio()));
    if (!runsOf(Pipeline.WEIR_SESSION).isEmpty()) {
      report.put("ratio_session_to_raw_launch", hundredths(launchRatio(Pipeline.WEIR_SESSION)));
    }
    if (recovery != null) {
      report.put("recovery", recoveryJson());
    }
    return report;
  }

  /** Medians under the figures' names, their ranges under {@code <name>_range}, every run. */
  private Map<String, Object> pipelineJson(Pipeline pipeline, List<KafkaBench.RunResult> of) {
    Map<String, Object> fields = new LinkedHashMap<>();
    putSpread(
        fields, "launch_to_done_s", spread(pipeline, KafkaBench.RunResult::launchToDoneSeconds));
    putSpread(
        fields,
        "first_commit_after_launch_s",
        spread(pipeline, KafkaBench.RunResult::firstCommitAfterLaunchSeconds));
    putSpread(fields, "cpu_s", spread(pipeline, KafkaBench.RunResult::cpuSeconds));
    putSpread(
        fields, "peak_rss_mib", spread(pipeline, KafkaBench.RunResult::peakResidentMebibytes));
    fields.put(
        "records_per_s",
        Math.round(spread(pipeline, KafkaBench.RunResult::recordsPerSecond).median()));
    Latency latency = latencyOf(of);
    if (latency != null) {
      fields.put("p50_ms", round(latency.p50Millis()));
      fields.put("p99_ms", round(latency.p99Millis()));
    }
    fields.put("lost", of.stream().mapToLong(KafkaBench.RunResult::lost).sum());
    fields.put("duplicated", of.stream().mapToLong(KafkaBench.RunResult::duplicated).sum());
    restartsOf(of).ifPresent(restarts -> fields.put("restarts", restarts));
    fields.put("each_run", of.stream().map(BenchTable::runJson).toList());
    return fields;
  }

  private static void putSpread(Map<String, Object> fields, String name, Spread spread) {
    fields.put(name, hundredths(spread.median()));
    fields.put(name + "_range", List.of(hundredths(spread.min()), hundredths(spread.max())));
  }

  private static Map<String, Object> runJson(KafkaBench.RunResult run) {
    Map<String, Object> fields = new LinkedHashMap<>();
    fields.put("launch_to_done_s", hundredths(run.launchToDoneSeconds()));
    fields.put("first_commit_after_launch_s", hundredths(run.firstCommitAfterLaunchSeconds()));
    fields.put("cpu_s", hundredths(run.cpuSeconds()));
    fields.put("peak_rss_mib", round(run.peakResidentMebibytes()));
    fields.put("records_per_s", Math.round(run.recordsPerSecond()));
    fields.put("lost", run.lost());
    fields.put("duplicated", run.duplicated());
    run.restarts().ifPresent(restarts -> fields.put("restarts", restarts));
    return fields;
  }

  private static double hundredths(double value) {
    return Math.round(value * 100) / 100.0;
  }

  private Map<String, Object> recoveryJson() {
    Map<String, Object> fields = new LinkedHashMap<>();
    fields.put("kill_to_first_new_commit_ms", Math.round(recovery.killToFirstNewCommitMillis()));
    fields.put(
        "restart_to_first_new_commit_ms", Math.round(recovery.restartToFirstNewCommitMillis()));
    fields.put("lost", recovery.lost());
    fields.put("duplicated", recovery.duplicated());
    return fields;
  }

  /** A figure to one decimal, as the tables and the JSON report show it. */
  public static double round(double value) {
    return Math.round(value * 10) / 10.0;
  }
}
