package io.weir.lab.bench;

import io.weir.lab.LabUserError;
import java.io.PrintStream;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Consumer;

/**
 * {@code weir bench --web-overhead}: the exactly-once pipeline run {@code repeat} times with its
 * dashboard, REST API and metrics and {@code repeat} times without ({@code --no-web}), each run in
 * a fresh JVM, in pairs whose order alternates (with, without; without, with; ...) so that a slower
 * phase of the machine does not fall on one side. Meant for a quiet machine: on a loaded one the
 * noise is larger than the cost.
 */
public final class WebOverheadBench {
  private final KafkaBench withWeb;
  private final KafkaBench withoutWeb;
  private final Consumer<String> progress;

  /**
   * @param withWeb the bench whose runs start the web server
   * @param withoutWeb the same bench on the same loaded input, without it
   */
  public WebOverheadBench(KafkaBench withWeb, KafkaBench withoutWeb, Consumer<String> progress) {
    this.withWeb = withWeb;
    this.withoutWeb = withoutWeb;
    this.progress = progress;
  }

  /** Runs the pairs; a failed run is reported and left out, never hides the others. */
  public WebOverheadEstimate run(int repeat) throws Exception {
    List<Double> with = new ArrayList<>();
    List<Double> without = new ArrayList<>();
    for (int pair = 1; pair <= repeat; pair++) {
      // Odd and even run numbers keep each run's topics and logs apart.
      boolean withFirst = pair % 2 == 1;
      for (boolean web : withFirst ? new boolean[] {true, false} : new boolean[] {false, true}) {
        int number = 2 * pair - (web ? 1 : 0);
        try {
          KafkaBench.RunResult result =
              (web ? withWeb : withoutWeb).run(Pipeline.WEIR_EXACTLY_ONCE, number, false);
          (web ? with : without).add(result.recordsPerSecond());
        } catch (LabUserError e) {
          progress.accept(
              "run " + number + (web ? " with" : " without") + " web failed: " + e.getMessage());
        }
      }
    }
    return new WebOverheadEstimate(with, without);
  }

  /** The table, then one line with the difference and its interval. */
  public static void print(WebOverheadEstimate estimate, PrintStream out) {
    out.println("web server overhead, exactly-once pipeline, records/s from launch to last commit");
    out.printf("  %-12s %5s %12s %12s %12s%n", "", "runs", "q1", "median", "q3");
    row(out, "with web", estimate.withWeb());
    row(out, "--no-web", estimate.withoutWeb());
    if (!estimate.measured()) {
      out.println("  overhead: not measured (every run of one side failed)");
      return;
    }
    double[] interval = estimate.interval95();
    out.printf(
        "  overhead: %.2f %% of the throughput without (bootstrap 95 %% interval %.2f .. %.2f %%)%n",
        estimate.overheadPercent(), interval[0], interval[1]);
  }

  private static void row(PrintStream out, String label, List<Double> runs) {
    double[] quartiles = WebOverheadEstimate.quartiles(runs);
    out.printf(
        "  %-12s %5d %,12.0f %,12.0f %,12.0f%n",
        label, runs.size(), quartiles[0], quartiles[1], quartiles[2]);
  }

  /** The JSON report's part: {@code web_overhead_pct} and what it came from. */
  public static Map<String, Object> json(WebOverheadEstimate estimate) {
    Map<String, Object> report = new LinkedHashMap<>();
    report.put("with_web", side(estimate.withWeb()));
    report.put("without_web", side(estimate.withoutWeb()));
    if (estimate.measured()) {
      double[] interval = estimate.interval95();
      report.put("web_overhead_pct", round(estimate.overheadPercent()));
      report.put("web_overhead_pct_interval_95", List.of(round(interval[0]), round(interval[1])));
    } else {
      report.put("web_overhead_pct", null);
    }
    return report;
  }

  private static Map<String, Object> side(List<Double> runs) {
    double[] quartiles = WebOverheadEstimate.quartiles(runs);
    Map<String, Object> side = new LinkedHashMap<>();
    side.put("runs_records_per_s", runs.stream().map(Math::round).toList());
    side.put("median_records_per_s", Double.isNaN(quartiles[1]) ? null : Math.round(quartiles[1]));
    side.put("q1_records_per_s", Double.isNaN(quartiles[0]) ? null : Math.round(quartiles[0]));
    side.put("q3_records_per_s", Double.isNaN(quartiles[2]) ? null : Math.round(quartiles[2]));
    return side;
  }

  private static double round(double value) {
    return Math.round(value * 100) / 100.0;
  }
}
