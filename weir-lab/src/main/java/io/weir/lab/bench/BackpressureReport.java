package io.weir.lab.bench;

import java.io.PrintStream;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Prints the figures of {@link BackpressureBench}, aligned and unaligned side by side, and returns
 * them under the keys of the JSON report.
 */
public final class BackpressureReport {
  private BackpressureReport() {}

  /**
   * @param results the aligned result first, then the unaligned one
   */
  public static Map<String, Object> print(List<BackpressureBench.Result> results, PrintStream out) {
    double alignedUnloaded = results.get(0).unloadedRecordsPerSecond();
    out.println(
        "checkpoints under a 3x overload (seed job on the generator, slowed map, exactly-once"
            + " file sink, one failure mid-run)");
    out.printf(
        "  %-10s %12s %8s %8s %18s %6s %10s %16s %14s%n",
        "mode",
        "checkpoints",
        "p50 ms",
        "p99 ms",
        "max in flight B",
        "lost",
        "duplicated",
        "unloaded rec/s",
        "ratio unloaded");
    Map<String, Object> report = new LinkedHashMap<>();
    for (BackpressureBench.Result result : results) {
      double ratio = result.unloadedRecordsPerSecond() / alignedUnloaded;
      out.printf(
          "  %-10s %12d %8d %8d %,18d %6d %10d %,16.0f %14.2f%n",
          result.mode(),
          result.checkpointMillis().size(),
          result.percentileMillis(50),
          result.percentileMillis(99),
          result.maxInFlightBytes(),
          result.lost(),
          result.duplicated(),
          result.unloadedRecordsPerSecond(),
          ratio);
      Map<String, Object> figures = new LinkedHashMap<>();
      figures.put("checkpoints", result.checkpointMillis().size());
      figures.put("checkpoint_p50_ms", result.percentileMillis(50));
      figures.put("checkpoint_p99_ms", result.percentileMillis(99));
      figures.put("max_inflight_bytes", result.maxInFlightBytes());
      figures.put("lost", result.lost());
      figures.put("duplicated", result.duplicated());
      figures.put("unloaded_records_per_s", Math.round(result.unloadedRecordsPerSecond()));
      // unaligned / aligned records per second without backpressure (1 for aligned itself)
      figures.put("throughput_ratio_unloaded", Math.round(ratio * 100) / 100.0);
      report.put(result.mode(), figures);
    }
    out.println("  (ratio unloaded: records/s without backpressure, against aligned)");
    return report;
  }
}
