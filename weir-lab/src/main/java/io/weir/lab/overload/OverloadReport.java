package io.weir.lab.overload;

import io.weir.lab.JsonReport;
import io.weir.lab.OutputVerifier;
import io.weir.lab.Percentile;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * What an overload soak found: a line per phase, the summary line, the anomalies (each a reason to
 * exit non-zero), and the JSON report.
 *
 * @param checkpointMillis the durations of every checkpoint that completed during the soak
 * @param abortedCheckpoints checkpoints the job gave up (expired or declined)
 * @param transactionTimeout the sink's transaction timeout, which the broker enforces
 * @param peakResidentMebibytes the most memory a job process held at once (heap, metaspace, thread
 *     stacks, direct buffers), 0 when it could not be read
 * @param heapLimitMebibytes the job process's heap limit, past which it fails with an
 *     OutOfMemoryError (a {@code jobFailure})
 * @param kills job processes the soak killed with SIGKILL
 * @param killedWithRecordsInFlight whether the newest completed checkpoint held records in flight
 *     when the soak killed the job; null without a kill
 * @param killPhase the phase in which the soak killed the job, 0 without a kill
 * @param jobFailure why the job process did not survive (out of memory, an exit), or null
 * @param picture the soak over time, written beside the JSON report
 */
public record OverloadReport(
    OverloadSettings settings,
    List<PhaseFigures> phases,
    List<Long> checkpointMillis,
    int abortedCheckpoints,
    long maxTransactionAgeMillis,
    Duration transactionTimeout,
    double peakResidentMebibytes,
    int heapLimitMebibytes,
    int restarts,
    int kills,
    Boolean killedWithRecordsInFlight,
    int killPhase,
    String jobFailure,
    OutputVerifier.Verdict verdict,
    OverloadPicture picture) {
  /**
   * The bound on the checkpoint duration's p99 with unaligned checkpoints, whatever the backlog.
   */
  static final Duration UNALIGNED_CHECKPOINT_P99_BOUND = Duration.ofSeconds(2);

  /** A transaction older than this share of the timeout is too close to the broker's abort. */
  static final double TRANSACTION_AGE_BOUND_RATIO = 0.5;

  public long checkpointP99Millis() {
    return Percentile.of(checkpointMillis, 99);
  }

  public long maxLag() {
    return phases.stream().mapToLong(PhaseFigures::maxLag).max().orElse(0);
  }

  public boolean lagDrained() {
    return phases.stream().allMatch(phase -> phase.drained() == null || phase.drained());
  }

  /** Everything that broke a promise of the soak; empty when it passed. */
  public List<String> anomalies() {
    List<String> anomalies = new ArrayList<>();
    if (jobFailure != null) {
      anomalies.add(jobFailure);
    }
    if (!verdict.exactlyOnce()) {
      anomalies.add(verdict.line());
    }
    if (settings.unaligned() && checkpointP99Millis() > UNALIGNED_CHECKPOINT_P99_BOUND.toMillis()) {
      anomalies.add(
          "checkpoint p99 "
              + checkpointP99Millis()
              + " ms is over the bound of "
              + UNALIGNED_CHECKPOINT_P99_BOUND.toMillis()
              + " ms for unaligned checkpoints");
    }
    if (abortedCheckpoints > 0) {
      anomalies.add(abortedCheckpoints + " checkpoints were aborted");
    }
    for (PhaseFigures phase : phases) {
      // The killed process's last checkpoints may fall between two looks and go unseen.
      if (phase.checkpoints() == 0 && phase.number() != killPhase) {
        anomalies.add("no checkpoint completed in phase " + phase.number());
      }
      if (Boolean.FALSE.equals(phase.drained())) {
        anomalies.add(
            "the lag did not drain in phase " + phase.number() + ", in twice its planned length");
      }
    }
    long ageBound = (long) (transactionTimeout.toMillis() * TRANSACTION_AGE_BOUND_RATIO);
    if (maxTransactionAgeMillis >= ageBound) {
      anomalies.add(
          String.format(
              Locale.ROOT,
              "a transaction reached %.1f s, past half the transaction timeout of %d s",
              maxTransactionAgeMillis / 1000.0,
              transactionTimeout.toSeconds()));
    }
    if (restarts > 0) {
      anomalies.add("the job restarted " + restarts + " times");
    }
    if (settings.unaligned() && Boolean.FALSE.equals(killedWithRecordsInFlight)) {
      anomalies.add("the kill found no records in flight in the newest checkpoint");
    }
    return anomalies;
  }

  public List<String> phaseLines() {
    return phases.stream().map(PhaseFigures::line).toList();
  }

  public String line() {
    return String.format(
        Locale.ROOT,
        "overload: minutes=%s records=%d lost=%d duplicated=%d checkpoint-p99=%d ms"
            + " max-txn-age=%.1f s restarts=%d max-lag=%d lag-drained=%s peak-rss=%.0f MiB"
            + " (heap %d MiB)%s",
        minutes(),
        verdict.in(),
        verdict.lost(),
        verdict.duplicated(),
        checkpointP99Millis(),
        maxTransactionAgeMillis / 1000.0,
        restarts,
        maxLag(),
        lagDrained() ? "yes" : "no",
        peakResidentMebibytes,
        heapLimitMebibytes,
        settings.kill() ? " kills=" + kills : "");
  }

  private String minutes() {
    double minutes = settings.total().toMillis() / 60_000.0;
    return minutes == Math.rint(minutes)
        ? Long.toString((long) minutes)
        : String.format(Locale.ROOT, "%.2f", minutes);
  }

  /**
   * Writes the JSON report to {@code json} and the picture beside it ({@code .svg}); returns the
   * picture's path.
   */
  public Path write(Path json) throws IOException {
    JsonReport.write(json, report());
    String name = json.getFileName().toString();
    Path svg =
        json.resolveSibling(
            (name.endsWith(".json") ? name.substring(0, name.length() - 5) : name) + ".svg");
    Files.writeString(svg, picture.svg());
    return svg;
  }

  /** The report {@code --json} writes: the summary's figures, then each phase's. */
  public Map<String, Object> report() {
    Map<String, Object> report = new LinkedHashMap<>();
    report.put("minutes", settings.total().toMillis() / 60_000.0);
    report.put("checkpoints", settings.unaligned() ? "unaligned" : "aligned");
    report.put("record_delay_micros", settings.recordDelayMicros());
    report.put("records", verdict.in());
    report.put("lost", verdict.lost());
    report.put("duplicated", verdict.duplicated());
    report.put("checkpoints_completed", checkpointMillis.size());
    report.put("checkpoints_aborted", abortedCheckpoints);
    report.put("checkpoint_p50_ms", Percentile.of(checkpointMillis, 50));
    report.put("checkpoint_p99_ms", checkpointP99Millis());
    report.put("checkpoint_max_ms", Percentile.of(checkpointMillis, 100));
    report.put("max_transaction_age_ms", maxTransactionAgeMillis);
    report.put("transaction_timeout_ms", transactionTimeout.toMillis());
    report.put("peak_rss_mib", Math.round(peakResidentMebibytes));
    report.put("heap_limit_mib", heapLimitMebibytes);
    report.put("restarts", restarts);
    report.put("kills", kills);
    if (killedWithRecordsInFlight != null) {
      report.put("killed_with_records_in_flight", killedWithRecordsInFlight);
    }
    report.put("max_lag", maxLag());
    report.put("lag_drained", lagDrained());
    report.put("anomalies", anomalies());
    report.put("phases", phases.stream().map(PhaseFigures::report).toList());
    return report;
  }
}
