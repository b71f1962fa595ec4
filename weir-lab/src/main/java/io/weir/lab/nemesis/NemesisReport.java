package io.weir.lab.nemesis;

import io.weir.lab.JsonReport;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * What a nemesis run did and found: the faults with their times, the checker's counts, and the
 * committed output over time. Prints as one summary line and a table per fault kind; writes as JSON
 * with a timeline picture (SVG) beside it.
 */
public final class NemesisReport {
  private final NemesisJob job;
  private final NemesisSink sink;
  private final List<Fault> faults;
  private final NemesisChecker.Findings findings;
  private final Duration stallBound;
  private final int jobRestarts;
  private final List<OutputWatch.Arrival> arrivals;
  private final Instant start;
  private final Instant end;

  NemesisReport(
      NemesisJob job,
      NemesisSink sink,
      List<Fault> faults,
      NemesisChecker.Findings findings,
      Duration stallBound,
      int jobRestarts,
      List<OutputWatch.Arrival> arrivals,
      Instant start,
      Instant end) {
    this.job = job;
    this.sink = sink;
    this.faults = List.copyOf(faults);
    this.findings = findings;
    this.stallBound = stallBound;
    this.jobRestarts = jobRestarts;
    this.arrivals = List.copyOf(arrivals);
    this.start = start;
    this.end = end;
  }

  /**
   * {@code nemesis: faults=F kinds=K records=N lost=0 duplicated=0 aborted-reads=0 max-stall=S s},
   * with {@code counts-off=0 order-broken=0} before the stall for the running count; with {@code
   * joined=J} (the pairs of the closed windows) after the records for the window join, whose lost
   * and duplicated count pairs missing and rows extra; into PostgreSQL {@code counts-off=0
   * totals-off=0} (a table keeps no order to check).
   */
  public String line() {
    return "nemesis: faults="
        + faults.size()
        + " kinds="
        + kinds().size()
        + " records="
        + findings.records()
        + (job == NemesisJob.WINDOW_JOIN ? " joined=" + findings.verdict().in() : "")
        + " lost="
        + findings.verdict().lost()
        + " duplicated="
        + findings.verdict().duplicated()
        + " aborted-reads="
        + findings.abortedReads()
        + findings
            .runningCount()
            .map(
                counts ->
                    " counts-off="
                        + counts.countsOff()
                        + (ordered() ? " order-broken=" + counts.orderBroken() : ""))
            .orElse("")
        + (findings.totalsOff().isPresent()
            ? " totals-off=" + findings.totalsOff().getAsLong()
            : "")
        + " max-stall="
        + seconds(findings.maxStall())
        + " s";
  }

  /** Every anomaly in one line each; empty when the run was clean. */
  public List<String> anomalies() {
    List<String> anomalies = new ArrayList<>();
    if (findings.verdict().lost() > 0) {
      anomalies.add(
          findings.verdict().lost()
              + (job == NemesisJob.WINDOW_JOIN
                  ? " joined pairs of closed windows missing from the committed output"
                  : " input records missing from the committed output"));
    }
    if (findings.verdict().duplicated() > 0) {
      anomalies.add(
          findings.verdict().duplicated()
              + (job == NemesisJob.WINDOW_JOIN
                  ? " committed rows that are no joined pair or repeat one"
                  : " records committed more than once"));
    }
    if (findings.abortedReads() > 0) {
      anomalies.add(
          findings.abortedReads()
              + " records shown to read_committed that only aborted transactions hold");
    }
    if (findings.truncatedCommits() > 0) {
      anomalies.add(
          findings.truncatedCommits() + " records shown to read_committed that the log lost");
    }
    findings
        .runningCount()
        .ifPresent(
            counts -> {
              if (counts.countsOff() > 0) {
                anomalies.add(
                    counts.countsOff()
                        + " committed running counts differ from the input's reference");
              }
              if (counts.orderBroken() > 0) {
                anomalies.add(
                    counts.orderBroken()
                        + " committed running counts out of their key's order in a partition");
              }
            });
    if (findings.totalsOff().orElse(0) > 0) {
      anomalies.add(
          findings.totalsOff().getAsLong()
              + " words whose committed totals differ from the input's reference");
    }
    if (findings.maxStall().compareTo(stallBound) > 0) {
      anomalies.add(
          "committed output stalled "
              + seconds(findings.maxStall())
              + " s after a fault healed, over the bound of "
              + seconds(stallBound)
              + " s");
    }
    return anomalies;
  }

  /** A table per fault kind: how many injected, the longest stall after one healed. */
  public List<String> table() {
    List<String> lines = new ArrayList<>();
    lines.add(String.format(Locale.ROOT, "%-10s %7s %18s", "fault", "count", "longest stall (s)"));
    for (FaultKind kind : kinds()) {
      Duration longest = Duration.ZERO;
      int count = 0;
      for (int index = 0; index < faults.size(); index++) {
        if (faults.get(index).kind() == kind) {
          count++;
          Duration stall = findings.stalls().get(index);
          longest = stall.compareTo(longest) > 0 ? stall : longest;
        }
      }
      lines.add(String.format(Locale.ROOT, "%-10s %7d %18s", kind.key(), count, seconds(longest)));
    }
    return lines;
  }

  /** Writes the JSON report to {@code json} and the timeline picture beside it ({@code .svg}). */
  public Path write(Path json) throws IOException {
    JsonReport.write(json, json());
    String name = json.getFileName().toString();
    Path picture =
        json.resolveSibling(
            (name.endsWith(".json") ? name.substring(0, name.length() - 5) : name) + ".svg");
    Files.writeString(picture, new TimelinePicture(start, end, faults, arrivals).svg());
    return picture;
  }

  private Map<String, Object> json() {
    Map<String, Object> report = new LinkedHashMap<>();
    report.put("job", job.key());
    report.put("sink", sink.key());
    List<Map<String, Object>> faultList = new ArrayList<>();
    for (int index = 0; index < faults.size(); index++) {
      Fault fault = faults.get(index);
      Map<String, Object> entry = new LinkedHashMap<>();
      entry.put("kind", fault.kind().key());
      entry.put("target", fault.target());
      entry.put("start", fault.start().toString());
      entry.put("end", fault.end().toString());
      entry.put("stall_after_s", seconds(findings.stalls().get(index)));
      faultList.add(entry);
    }
    report.put("faults", faultList);
    report.put("kinds", kinds().stream().map(FaultKind::key).toList());
    report.put("records", findings.records());
    if (job == NemesisJob.WINDOW_JOIN) {
      report.put("joined", findings.verdict().in());
    }
    report.put("lost", findings.verdict().lost());
    report.put("duplicated", findings.verdict().duplicated());
    report.put("aborted_reads", findings.abortedReads());
    report.put("truncated_commits", findings.truncatedCommits());
    report.put("aborted_records", findings.abortedRecords());
    findings
        .runningCount()
        .ifPresent(
            counts -> {
              report.put("counts_off", counts.countsOff());
              if (ordered()) {
                report.put("order_broken", counts.orderBroken());
              }
            });
    findings.totalsOff().ifPresent(off -> report.put("totals_off", off));
    report.put("max_stall_s", seconds(findings.maxStall()));
    report.put("stall_bound_s", seconds(stallBound));
    report.put("job_restarts_unasked", jobRestarts);
    report.put("start", start.toString());
    report.put("end", end.toString());
    report.put("anomalies", anomalies());
    return report;
  }

  /** Whether the output keeps an order to check: a topic's partitions do, a table does not. */
  private boolean ordered() {
    return sink == NemesisSink.KAFKA;
  }

  private List<FaultKind> kinds() {
    return FaultKind.all().stream()
        .filter(kind -> faults.stream().anyMatch(fault -> fault.kind() == kind))
        .toList();
  }

  static double seconds(Duration duration) {
    return Math.round(duration.toMillis() / 100.0) / 10.0;
  }
}
