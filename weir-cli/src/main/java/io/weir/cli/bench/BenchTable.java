package io.weir.cli.bench;

import java.io.PrintStream;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/** The Kafka benchmark's results: a table for people, a map for the JSON report. */
final class BenchTable {
  private final long records;
  private final int partitions;
  private final int parallelism;
  private final List<KafkaBench.RunResult> runs = new ArrayList<>();
  private final Map<Pipeline, String> failures = new LinkedHashMap<>();
  private KafkaBench.RecoveryResult recovery;

  BenchTable(long records, int partitions, int parallelism) {
    this.records = records;
    this.partitions = partitions;
    this.parallelism = parallelism;
  }

  void add(KafkaBench.RunResult run) {
    runs.add(run);
  }

  void failed(Pipeline pipeline, String reason) {
    failures.put(pipeline, reason);
  }

  void recovery(KafkaBench.RecoveryResult result) {
    this.recovery = result;
  }

  /** Weir exactly-once throughput over the plain loop's, or NaN when one of them did not run. */
  double ratio() {
    double raw = throughputOf(Pipeline.RAW);
    double weir = throughputOf(Pipeline.WEIR_EXACTLY_ONCE);
    return weir / raw;
  }

  private double throughputOf(Pipeline pipeline) {
    return runs.stream()
        .filter(run -> run.pipeline() == pipeline)
        .mapToDouble(KafkaBench.RunResult::recordsPerSecond)
        .findFirst()
        .orElse(Double.NaN);
  }

  void print(PrintStream out) {
    out.printf(
        "%,d records, %d partitions, Weir parallelism %d, checkpoints/transactions every 1 s%n",
        records, partitions, parallelism);
    out.printf(
        "%-20s %12s %9s %9s %9s %8s %10s%n",
        "run", "records/s", "p50 ms", "p99 ms", "RSS MiB", "lost", "duplicated");
    for (KafkaBench.RunResult run : runs) {
      out.printf(
          "%-20s %,12.0f %9.0f %9.0f %9.0f %8d %10d%n",
          run.pipeline().key(),
          run.recordsPerSecond(),
          run.latency().p50Millis(),
          run.latency().p99Millis(),
          run.peakResidentMebibytes(),
          run.lost(),
          run.duplicated());
    }
    failures.forEach(
        (pipeline, reason) -> out.printf("%-20s failed: %s%n", pipeline.key(), reason));
    out.printf("weir exactly-once / raw: %.2f%n", ratio());
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

  Map<String, Object> json() {
    Map<String, Object> byName = new LinkedHashMap<>();
    for (KafkaBench.RunResult run : runs) {
      Map<String, Object> fields = new LinkedHashMap<>();
      fields.put("records_per_s", Math.round(run.recordsPerSecond()));
      fields.put("p50_ms", BenchCommand.round(run.latency().p50Millis()));
      fields.put("p99_ms", BenchCommand.round(run.latency().p99Millis()));
      fields.put("peak_rss_mib", BenchCommand.round(run.peakResidentMebibytes()));
      fields.put("lost", run.lost());
      fields.put("duplicated", run.duplicated());
      byName.put(run.pipeline().key(), fields);
    }
    failures.forEach((pipeline, reason) -> byName.put(pipeline.key(), Map.of("error", reason)));
    Map<String, Object> report = new LinkedHashMap<>();
    report.put("records", records);
    report.put("partitions", partitions);
    report.put("parallelism", parallelism);
    report.put("runs", byName);
    report.put("ratio_exactly_once_to_raw", Math.round(ratio() * 100) / 100.0);
    if (recovery != null) {
      Map<String, Object> fields = new LinkedHashMap<>();
      fields.put("kill_to_first_new_commit_ms", Math.round(recovery.killToFirstNewCommitMillis()));
      fields.put(
          "restart_to_first_new_commit_ms", Math.round(recovery.restartToFirstNewCommitMillis()));
      fields.put("lost", recovery.lost());
      fields.put("duplicated", recovery.duplicated());
      report.put("recovery", fields);
    }
    return report;
  }
}
