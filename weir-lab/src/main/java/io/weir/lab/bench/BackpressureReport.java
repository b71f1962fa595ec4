package io.weir.lab.bench;

import java.io.PrintStream;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Prints the figures of {@link BackpressureBench}, aligned, unaligned and aligned with adaptive
 * in-flight data side by side, and returns them under the keys of the JSON report.
 */
public final class BackpressureReport {
  /** The bound for aligned checkpoints with adaptive in-flight data, in targets. */
  private static final int ADAPTIVE_P99_TARGETS = 3;

  private BackpressureReport() {}

  /**
   * @param results the aligned result first, then the others
   */
  public static Map<String, Object> print(List<BackpressureBench.Result> results, PrintStream out) {
    double alignedUnloaded = results.get(0).unloadedRecordsPerSecond();
    out.println(
        "checkpoints under a 3x overload (seed job on the generator, slowed map, exactly-once"
            + " file sink, one failure mid-run)");
    out.printf(
        "  %-17s %11s %8s %8s %16s %16s %5s %10s %15s %9s%n",
        "mode",
        "checkpoints",
        "p50 ms",
        "p99 ms",
        "max queued B",
        "max stored B",
        "lost",
        "duplicated",
        "unloaded rec/s",
        "ratio");
    Map<String, Object> report = new LinkedHashMap<>();
    for (BackpressureBench.Result result : results) {
      double ratio = result.unloadedRecordsPerSecond() / alignedUnloaded;
      out.printf(
          "  %-17s %11d %8d %8d %,16d %,16d %5d %10d %,15.0f %9.2f%n",
          result.mode(),
          result.checkpointMillis().size(),
          result.percentileMillis(50),
          result.percentileMillis(99),
          result.maxInFlightBytes(),
          result.maxCheckpointInFlightBytes(),
          result.lost(),
          result.duplicated(),
          result.unloadedRecordsPerSecond(),
          ratio);
      Map<String, Object> figures = new LinkedHashMap<>();
      figures.put("checkpoints", result.checkpointMillis().size());
      figures.put("checkpoint_p50_ms", result.percentileMillis(50));
      figures.put("checkpoint_p99_ms", result.percentileMillis(99));
      figures.put("max_inflight_bytes", result.maxInFlightBytes());
      figures.put("max_checkpoint_inflight_bytes", result.maxCheckpointInFlightBytes());
      figures.put("lost", result.lost());
      figures.put("duplicated", result.duplicated());
      figures.put("unloaded_records_per_s", Math.round(result.unloadedRecordsPerSecond()));
      // this mode's / aligned records per second without backpressure (1 for aligned itself)
      figures.put("throughput_ratio_unloaded", Math.round(ratio * 100) / 100.0);
      report.put(result.mode(), figures);
    }
    out.println(
        "  (max queued: bytes in input gates at once, sampled; max stored: bytes in flight one"
            + " checkpoint stored; ratio: records/s without backpressure, against aligned)");
    long boundMillis = ADAPTIVE_P99_TARGETS * BackpressureBench.ADAPTIVE_TARGET.toMillis();
    results.stream()
        .filter(result -> result.mode().equals("aligned_adaptive"))
        .findFirst()
        .ifPresent(
            adaptive ->
                out.printf(
                    "  aligned_adaptive p99 %d ms against %d ms (%d x its %d ms target): %s%n",
                    adaptive.percentileMillis(99),
                    boundMillis,
                    ADAPTIVE_P99_TARGETS,
                    BackpressureBench.ADAPTIVE_TARGET.toMillis(),
                    adaptive.percentileMillis(99) <= boundMillis ? "within" : "beyond"));
    return report;
  }
}
