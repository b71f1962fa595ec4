package io.weir.lab.bench;

import java.io.PrintStream;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.OptionalLong;
import java.util.function.ToDoubleFunction;

/**
 * The Nexmark bench's results: per query the medians of each engine's runs, as a table and as the
 * JSON report's {@code queries}. A figure of an engine that did not run a query is null, and so are
 * the latencies when the runs were not paced (the table then has no latency columns).
 */
public final class NexmarkBenchTable {
  private final long events;
  private final int parallelism;
  private final String stateBackend;
  private final int repeat;
  private final OptionalLong pacedRatePerSecond;
  private final Map<String, List<NexmarkBench.Run>> runsByQuery = new LinkedHashMap<>();

  public NexmarkBenchTable(
      long events,
      int parallelism,
      String stateBackend,
      int repeat,
      OptionalLong pacedRatePerSecond) {
    this.events = events;
    this.parallelism = parallelism;
    this.stateBackend = stateBackend;
    this.repeat = repeat;
    this.pacedRatePerSecond = pacedRatePerSecond;
  }

  /** Adds a query before its runs, so that it appears even when no run succeeded. */
  public void query(String query) {
    runsByQuery.putIfAbsent(query, new ArrayList<>());
  }

  public void add(String query, NexmarkBench.Run run) {
    runsByQuery.computeIfAbsent(query, name -> new ArrayList<>()).add(run);
  }

  public void print(PrintStream out) {
    out.printf(
        "Nexmark, %,d events%s, parallelism %d, %s state, exactly-once to Kafka, medians of %d"
            + " run(s)%n",
        events,
        pacedRatePerSecond.isPresent()
            ? String.format(" paced at %,d/s", pacedRatePerSecond.getAsLong())
            : "",
        parallelism,
        stateBackend,
        repeat);
    out.printf(
        "%-6s %16s %16s %7s %13s %13s %10s %10s%s  %s%n",
        "query",
        "Weir ev/s/core",
        "Flink ev/s/core",
        "ratio",
        "Weir ev/s",
        "Flink ev/s",
        "Weir RSS",
        "Flink RSS",
        pacedRatePerSecond.isPresent()
            ? String.format(" %17s %17s", "Weir p50/p99 ms", "Flink p50/p99 ms")
            : "",
        "rows");
    runsByQuery.forEach((query, runs) -> out.println(row(query, runs)));
  }

  private String row(String query, List<NexmarkBench.Run> runs) {
    Double weirPerCore = median(runs, NexmarkEngine.WEIR, NexmarkBench.Run::eventsPerCpuSecond);
    Double flinkPerCore = median(runs, NexmarkEngine.FLINK, NexmarkBench.Run::eventsPerCpuSecond);
    String ratio =
        weirPerCore == null || flinkPerCore == null
            ? "-"
            : String.format("%.2fx", weirPerCore / flinkPerCore);
    return String.format(
        "%-6s %16s %16s %7s %13s %13s %10s %10s%s  %s",
        query,
        number(weirPerCore, "%,.0f"),
        number(flinkPerCore, "%,.0f"),
        ratio,
        number(median(runs, NexmarkEngine.WEIR, NexmarkBench.Run::eventsPerSecond), "%,.0f"),
        number(median(runs, NexmarkEngine.FLINK, NexmarkBench.Run::eventsPerSecond), "%,.0f"),
        number(
            median(runs, NexmarkEngine.WEIR, NexmarkBench.Run::peakResidentMebibytes), "%.0f MiB"),
        number(
            median(runs, NexmarkEngine.FLINK, NexmarkBench.Run::peakResidentMebibytes), "%.0f MiB"),
        pacedRatePerSecond.isPresent()
            ? String.format(
                " %17s %17s", latency(runs, NexmarkEngine.WEIR), latency(runs, NexmarkEngine.FLINK))
            : "",
        rowsVerdict(runs));
  }

  /** "p50 / p99" of the engine's runs' medians, or "-". */
  private static String latency(List<NexmarkBench.Run> runs, NexmarkEngine engine) {
    Double p50 = latencyMedian(runs, engine, NexmarkBench.Run::latencyP50Millis);
    Double p99 = latencyMedian(runs, engine, NexmarkBench.Run::latencyP99Millis);
    return p50 == null || p99 == null ? "-" : String.format("%,.0f / %,.0f", p50, p99);
  }

  /** The median of a latency figure over the engine's runs; null when none has it. */
  private static Double latencyMedian(
      List<NexmarkBench.Run> runs,
      NexmarkEngine engine,
      java.util.function.Function<NexmarkBench.Run, Double> figure) {
    List<Double> values =
        runs.stream()
            .filter(run -> run.engine() == engine && figure.apply(run) != null)
            .map(figure)
            .toList();
    return values.isEmpty() ? null : Spread.of(values).median();
  }

  /** "matches SQL", "differs from SQL", "same count" or "counts differ" over all runs. */
  private static String rowsVerdict(List<NexmarkBench.Run> runs) {
    if (runs.isEmpty()) {
      return "no run";
    }
    Boolean matches = matchesSql(runs);
    if (matches != null) {
      return matches ? "all runs match SQL" : "a run differs from SQL";
    }
    return runs.stream().map(NexmarkBench.Run::rows).distinct().count() == 1
        ? String.format("all runs %,d rows", runs.get(0).rows())
        : "row counts differ between runs";
  }

  /** True when every run was compared with SQL and matched; null when none was compared. */
  private static Boolean matchesSql(List<NexmarkBench.Run> runs) {
    if (runs.isEmpty() || runs.stream().anyMatch(run -> run.matchesSql() == null)) {
      return null;
    }
    return runs.stream().allMatch(NexmarkBench.Run::matchesSql);
  }

  public Map<String, Object> json() {
    List<Map<String, Object>> queries = new ArrayList<>();
    runsByQuery.forEach((query, runs) -> queries.add(queryJson(query, runs)));
    Map<String, Object> report = new LinkedHashMap<>();
    report.put("events", events);
    report.put("parallelism", parallelism);
    report.put("state_backend", stateBackend);
    report.put("repeat", repeat);
    report.put(
        "paced_rate", pacedRatePerSecond.isPresent() ? pacedRatePerSecond.getAsLong() : null);
    report.put("queries", queries);
    return report;
  }

  private Map<String, Object> queryJson(String query, List<NexmarkBench.Run> runs) {
    Map<String, Object> fields = new LinkedHashMap<>();
    fields.put("query", query);
    fields.put("events", events);
    fields.put(
        "weir_events_per_s",
        rounded(median(runs, NexmarkEngine.WEIR, NexmarkBench.Run::eventsPerSecond)));
    fields.put(
        "weir_events_per_cpu_s",
        rounded(median(runs, NexmarkEngine.WEIR, NexmarkBench.Run::eventsPerCpuSecond)));
    fields.put(
        "flink_events_per_s",
        rounded(median(runs, NexmarkEngine.FLINK, NexmarkBench.Run::eventsPerSecond)));
    fields.put(
        "flink_events_per_cpu_s",
        rounded(median(runs, NexmarkEngine.FLINK, NexmarkBench.Run::eventsPerCpuSecond)));
    fields.put(
        "weir_peak_rss_mib",
        rounded(median(runs, NexmarkEngine.WEIR, NexmarkBench.Run::peakResidentMebibytes)));
    fields.put(
        "flink_peak_rss_mib",
        rounded(median(runs, NexmarkEngine.FLINK, NexmarkBench.Run::peakResidentMebibytes)));
    fields.put(
        "weir_latency_p50_ms",
        rounded(latencyMedian(runs, NexmarkEngine.WEIR, NexmarkBench.Run::latencyP50Millis)));
    fields.put(
        "weir_latency_p99_ms",
        rounded(latencyMedian(runs, NexmarkEngine.WEIR, NexmarkBench.Run::latencyP99Millis)));
    fields.put(
        "flink_latency_p50_ms",
        rounded(latencyMedian(runs, NexmarkEngine.FLINK, NexmarkBench.Run::latencyP50Millis)));
    fields.put(
        "flink_latency_p99_ms",
        rounded(latencyMedian(runs, NexmarkEngine.FLINK, NexmarkBench.Run::latencyP99Millis)));
    fields.put("weir_rows", rows(runs, NexmarkEngine.WEIR));
    fields.put("flink_rows", rows(runs, NexmarkEngine.FLINK));
    fields.put("output_matches_sql", matchesSql(runs));
    fields.put("lost", sum(runs, NexmarkBench.Run::lost));
    fields.put("duplicated", sum(runs, NexmarkBench.Run::duplicated));
    fields.put("runs", runs.stream().map(NexmarkBenchTable::runJson).toList());
    return fields;
  }

  private static Map<String, Object> runJson(NexmarkBench.Run run) {
    Map<String, Object> fields = new LinkedHashMap<>();
    fields.put("engine", run.engine().key());
    fields.put("repetition", run.repetition());
    fields.put("events_per_s", Math.round(run.eventsPerSecond()));
    fields.put("events_per_cpu_s", Math.round(run.eventsPerCpuSecond()));
    fields.put("peak_rss_mib", BenchTable.round(run.peakResidentMebibytes()));
    fields.put("rows", run.rows());
    fields.put("matches_sql", run.matchesSql());
    fields.put("latency_p50_ms", rounded(run.latencyP50Millis()));
    fields.put("latency_p99_ms", rounded(run.latencyP99Millis()));
    return fields;
  }

  /**
   * The most rows one run of the engine committed (the verdict says if runs differ); null: none.
   */
  private static Long rows(List<NexmarkBench.Run> runs, NexmarkEngine engine) {
    List<Long> counts =
        runs.stream().filter(run -> run.engine() == engine).map(NexmarkBench.Run::rows).toList();
    return counts.isEmpty() ? null : counts.stream().max(Long::compare).orElseThrow();
  }

  private static Long sum(
      List<NexmarkBench.Run> runs, java.util.function.Function<NexmarkBench.Run, Long> figure) {
    if (runs.isEmpty() || runs.stream().anyMatch(run -> figure.apply(run) == null)) {
      return null;
    }
    return runs.stream().mapToLong(figure::apply).sum();
  }

  private static Double median(
      List<NexmarkBench.Run> runs,
      NexmarkEngine engine,
      ToDoubleFunction<NexmarkBench.Run> figure) {
    List<Double> values =
        runs.stream()
            .filter(run -> run.engine() == engine)
            .map(run -> figure.applyAsDouble(run))
            .toList();
    return values.isEmpty() ? null : Spread.of(values).median();
  }

  private static Object rounded(Double value) {
    return value == null ? null : BenchTable.round(value);
  }

  private static String number(Double value, String format) {
    return value == null ? "-" : String.format(format, value);
  }
}
