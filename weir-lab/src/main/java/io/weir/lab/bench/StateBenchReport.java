package io.weir.lab.bench;

import java.io.PrintStream;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/** Prints the figures of {@link StateBench} and returns them under the keys of the JSON report. */
public final class StateBenchReport {
  private StateBenchReport() {}

  public static Map<String, Object> print(
      StateBench.Result result, double changePercent, PrintStream out) {
    Map<String, Object> backends = new LinkedHashMap<>();
    out.println("keyed state: read, add one, write per record (one subtask, 100,000 keys)");
    for (StateBench.Throughput throughput : result.throughput()) {
      out.printf(
          "  %-8s %,14.0f records/s (%,d records)%n",
          throughput.backend(), throughput.recordsPerSecond(), throughput.records());
      Map<String, Object> figures = new LinkedHashMap<>();
      figures.put("records_per_s", Math.round(throughput.recordsPerSecond()));
      backends.put(throughput.backend(), figures);
    }
    StateBench.CheckpointFigures full = result.full();
    List<StateBench.CheckpointFigures> incremental = result.incremental();
    StateBench.CheckpointFigures median =
        incremental.stream()
            .sorted(java.util.Comparator.comparingLong(StateBench.CheckpointFigures::bytes))
            .toList()
            .get(incremental.size() / 2);
    out.printf(
        "RocksDB checkpoints of %,d keys of 1,000 bytes, %.1f %% of the keys changed between"
            + " checkpoints%n",
        result.stateKeys(), changePercent);
    out.printf("  full:        %,15d bytes written in %,7d ms%n", full.bytes(), full.millis());
    for (StateBench.CheckpointFigures each : incremental) {
      out.printf(
          "  incremental: %,15d bytes written in %,7d ms (%.1f %% of the full one)%n",
          each.bytes(), each.millis(), 100.0 * each.bytes() / full.bytes());
    }
    out.printf(
        "  (the JSON's incremental figures are the median of %d intervals, with mean and max)%n",
        incremental.size());
    @SuppressWarnings("unchecked")
    Map<String, Object> rocksdb = (Map<String, Object>) backends.get("rocksdb");
    rocksdb.put("state_bytes", result.stateKeys() * 1_000);
    rocksdb.put("full_checkpoint_bytes", full.bytes());
    rocksdb.put("full_checkpoint_ms", full.millis());
    rocksdb.put("incremental_checkpoint_bytes", median.bytes());
    rocksdb.put("incremental_checkpoint_ms", median.millis());
    // A compaction that rewrites a level makes one interval's checkpoint far larger: say so.
    rocksdb.put(
        "incremental_checkpoint_bytes_max",
        incremental.stream().mapToLong(StateBench.CheckpointFigures::bytes).max().orElse(0));
    rocksdb.put(
        "incremental_checkpoint_bytes_mean",
        Math.round(
            incremental.stream()
                .mapToLong(StateBench.CheckpointFigures::bytes)
                .average()
                .orElse(0)));
    rocksdb.put("changed_percent_per_interval", changePercent);
    Map<String, Object> report = new LinkedHashMap<>();
    report.put("state", backends);
    return report;
  }
}
