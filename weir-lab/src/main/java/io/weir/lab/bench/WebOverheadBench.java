package io.weir.lab.bench;

import io.weir.lab.LabUserError;
import io.weir.lab.bench.WebOverheadEstimate.Measure;
import java.io.PrintStream;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Consumer;
import java.util.function.DoubleFunction;

/**
 * {@code weir bench --web-overhead}: the exactly-once pipeline run {@code repeat} times with its
 * dashboard, REST API and metrics and {@code repeat} times without ({@code --no-web}), each run in
 * a fresh JVM, in pairs whose order alternates (with, without; without, with; ...) so that a slower
 * phase of the machine does not fall on one side. Each run gives three figures: its throughput from
 * first input (first output written to last output committed, the bench's throughput: the server's
 * cost while the job runs), its throughput from launch (process launch to last output committed:
 * start-up included) and its process's CPU seconds (less sensitive to other load).
 */
public final class WebOverheadBench {
  private final KafkaBench withWeb;
  private final KafkaBench withoutWeb;
  private final long records;
  private final Consumer<String> progress;

  /** The three estimates of one comparison. */
  public record Estimates(
      WebOverheadEstimate fromFirstInput, WebOverheadEstimate fromLaunch, WebOverheadEstimate cpu) {
    public Estimates(
        List<Double> withFromFirstInput,
        List<Double> withoutFromFirstInput,
        List<Double> withFromLaunch,
        List<Double> withoutFromLaunch,
        List<Double> withCpu,
        List<Double> withoutCpu) {
      this(
          new WebOverheadEstimate(
              Measure.RECORDS_PER_SECOND, withFromFirstInput, withoutFromFirstInput),
          new WebOverheadEstimate(Measure.RECORDS_PER_SECOND, withFromLaunch, withoutFromLaunch),
          new WebOverheadEstimate(Measure.CPU_SECONDS, withCpu, withoutCpu));
    }
  }

  /**
   * @param withWeb the bench whose runs start the web server
   * @param withoutWeb the same bench on the same loaded input, without it
   * @param records the records each run reads, for its throughput from launch
   */
  public WebOverheadBench(
      KafkaBench withWeb, KafkaBench withoutWeb, long records, Consumer<String> progress) {
    this.withWeb = withWeb;
    this.withoutWeb = withoutWeb;
    this.records = records;
    this.progress = progress;
  }

  /**
   * Runs the pairs; a failed run is reported and leaves its pair out (so that the i-th runs of the
   * two sides stay a pair), never hides the others.
   */
  public Estimates run(int repeat) throws Exception {
    Side with = new Side();
    Side without = new Side();
    for (int pair = 1; pair <= repeat; pair++) {
      // Odd and even run numbers keep each run's topics and logs apart.
      boolean withFirst = pair % 2 == 1;
      KafkaBench.RunResult withResult = null;
      KafkaBench.RunResult withoutResult = null;
      for (boolean web : withFirst ? new boolean[] {true, false} : new boolean[] {false, true}) {
        int number = 2 * pair - (web ? 1 : 0);
        try {
          KafkaBench.RunResult result =
              (web ? withWeb : withoutWeb).run(Pipeline.WEIR_EXACTLY_ONCE, number, false);
          requireExactlyOnce(result, number);
          if (web) {
            withResult = result;
          } else {
            withoutResult = result;
          }
        } catch (LabUserError e) {
          progress.accept(
              "run " + number + (web ? " with" : " without") + " web failed: " + e.getMessage());
        }
      }
      if (withResult != null && withoutResult != null) {
        with.add(withResult, records);
        without.add(withoutResult, records);
      }
    }
    return new Estimates(
        with.fromFirstInput,
        without.fromFirstInput,
        with.fromLaunch,
        without.fromLaunch,
        with.cpuSeconds,
        without.cpuSeconds);
  }

  /** A run that lost or duplicated records measured a broken pipeline: the bench fails. */
  private static void requireExactlyOnce(KafkaBench.RunResult result, int number) {
    if (result.lost() > 0 || result.duplicated() > 0) {
      throw new IllegalStateException(
          "Run "
              + number
              + " of the exactly-once pipeline lost "
              + result.lost()
              + " and duplicated "
              + result.duplicated()
              + " records: its throughput is not a measure of the pipeline");
    }
  }

  /** One side's runs, figure by figure. */
  private static final class Side {
    final List<Double> fromFirstInput = new ArrayList<>();
    final List<Double> fromLaunch = new ArrayList<>();
    final List<Double> cpuSeconds = new ArrayList<>();

    void add(KafkaBench.RunResult result, long records) {
      fromFirstInput.add(result.recordsPerSecond());
      fromLaunch.add(records / result.launchToDoneSeconds());
      cpuSeconds.add(result.cpuSeconds());
    }
  }

  /** A table per figure, each with one line giving the cost and its interval. */
  public static void print(Estimates estimates, PrintStream out) {
    out.println("web server overhead, exactly-once pipeline, each run in a fresh JVM");
    table(
        out,
        "records/s from first input (first output written to last committed)",
        estimates.fromFirstInput(),
        "%,12.0f",
        "of the throughput without");
    table(
        out,
        "records/s from launch (process launch to last committed)",
        estimates.fromLaunch(),
        "%,12.0f",
        "of the throughput without");
    table(
        out,
        "CPU seconds of the job's process",
        estimates.cpu(),
        "%12.2f",
        "more CPU than without");
  }

  private static void table(
      PrintStream out, String title, WebOverheadEstimate estimate, String format, String cost) {
    out.println(title);
    out.printf("  %-12s %5s %12s %12s %12s%n", "", "runs", "q1", "median", "q3");
    row(out, "with web", estimate.withWeb(), format);
    row(out, "--no-web", estimate.withoutWeb(), format);
    if (!estimate.measured()) {
      out.println("  overhead: not measured (every run of one side failed)");
      return;
    }
    double[] interval = estimate.interval95();
    out.printf(
        "  overhead: %.2f %% %s (bootstrap 95 %% interval %.2f .. %.2f %%)%n",
        estimate.overheadPercent(), cost, interval[0], interval[1]);
    if (estimate.paired()) {
      double[] paired = estimate.pairedInterval95();
      out.printf(
          "  paired: %.2f %% (median of the %d pairs' overheads, bootstrap 95 %% interval %.2f .."
              + " %.2f %%)%n",
          estimate.pairedOverheadPercent(), estimate.withWeb().size(), paired[0], paired[1]);
    }
  }

  private static void row(PrintStream out, String label, List<Double> runs, String format) {
    double[] quartiles = WebOverheadEstimate.quartiles(runs);
    out.printf(
        "  %-12s %5d " + format + " " + format + " " + format + "%n",
        label,
        runs.size(),
        quartiles[0],
        quartiles[1],
        quartiles[2]);
  }

  /**
   * The JSON report's part: {@code web_overhead_pct} is the cost from first input (the throughput
   * the bench reports); {@code web_overhead_from_launch_pct} includes start-up; {@code
   * web_cpu_overhead_pct} is the CPU time added. Each with its interval and, when the runs form
   * pairs, its paired estimate ({@code web_overhead_paired_pct}, ...).
   */
  public static Map<String, Object> json(Estimates estimates) {
    Map<String, Object> report = new LinkedHashMap<>();
    report.put("with_web", side(estimates, true));
    report.put("without_web", side(estimates, false));
    report.put("web_overhead_measured_from", "first input");
    percent(report, "web_overhead_pct", estimates.fromFirstInput());
    percent(report, "web_overhead_from_launch_pct", estimates.fromLaunch());
    percent(report, "web_cpu_overhead_pct", estimates.cpu());
    return report;
  }

  private static void percent(
      Map<String, Object> report, String key, WebOverheadEstimate estimate) {
    if (!estimate.measured()) {
      report.put(key, null);
      return;
    }
    double[] interval = estimate.interval95();
    report.put(key, round(estimate.overheadPercent()));
    report.put(key + "_interval_95", List.of(round(interval[0]), round(interval[1])));
    if (estimate.paired()) {
      double[] paired = estimate.pairedInterval95();
      String pairedKey = key.replace("_pct", "_paired_pct");
      report.put(pairedKey, round(estimate.pairedOverheadPercent()));
      report.put(pairedKey + "_interval_95", List.of(round(paired[0]), round(paired[1])));
    }
  }

  private static Map<String, Object> side(Estimates estimates, boolean web) {
    Map<String, Object> side = new LinkedHashMap<>();
    List<Double> fromFirstInput =
        web ? estimates.fromFirstInput().withWeb() : estimates.fromFirstInput().withoutWeb();
    List<Double> fromLaunch =
        web ? estimates.fromLaunch().withWeb() : estimates.fromLaunch().withoutWeb();
    List<Double> cpu = web ? estimates.cpu().withWeb() : estimates.cpu().withoutWeb();
    side.put("runs_records_per_s", fromFirstInput.stream().map(Math::round).toList());
    quartiles(side, "records_per_s", fromFirstInput, Math::round);
    side.put("runs_records_per_s_from_launch", fromLaunch.stream().map(Math::round).toList());
    quartiles(side, "records_per_s_from_launch", fromLaunch, Math::round);
    side.put("runs_cpu_seconds", cpu.stream().map(WebOverheadBench::round).toList());
    quartiles(side, "cpu_seconds", cpu, WebOverheadBench::round);
    return side;
  }

  /** {@code median_NAME}, {@code q1_NAME}, {@code q3_NAME}: null when the side has no run. */
  private static void quartiles(
      Map<String, Object> side, String name, List<Double> runs, DoubleFunction<Object> rounding) {
    double[] quartiles = WebOverheadEstimate.quartiles(runs);
    side.put("median_" + name, rounded(quartiles[1], rounding));
    side.put("q1_" + name, rounded(quartiles[0], rounding));
    side.put("q3_" + name, rounded(quartiles[2], rounding));
  }

  private static Object rounded(double value, DoubleFunction<Object> rounding) {
    return Double.isNaN(value) ? null : rounding.apply(value);
  }

  private static double round(double value) {
    return Math.round(value * 100) / 100.0;
  }
}
