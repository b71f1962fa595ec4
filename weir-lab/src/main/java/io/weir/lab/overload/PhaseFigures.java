package io.weir.lab.overload;

import io.weir.lab.Percentile;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * What one phase of the overload soak looked like, from the watch's looks during it and the
 * checkpoints triggered in it.
 *
 * @param offeredRate the rate the plan asked of the feed
 * @param fedRate the rate the feed reached
 * @param sinkRate records a second the sink took in (looks across a job restart left out)
 * @param lagAtEnd the group's lag at the phase's last look
 * @param drained for a recovery phase, whether the lag fell to the drained level in it; null for an
 *     overload phase
 * @param drainMillis for a drained recovery phase, how long after its start the lag first fell to
 *     the drained level; -1 otherwise
 */
record PhaseFigures(
    int number,
    PhaseKind kind,
    long seconds,
    long offeredRate,
    long fedRate,
    long sinkRate,
    long maxLag,
    long lagAtEnd,
    Boolean drained,
    long drainMillis,
    int checkpoints,
    long checkpointP99Millis,
    long maxTransactionAgeMillis) {

  /**
   * The figures of {@code phase}, started at {@code startMillis}, from the looks made in it (at
   * least one) and the completed checkpoints triggered while it ran; {@code drainedLag} is the lag
   * at or below which a recovery phase counts as drained.
   */
  static PhaseFigures of(
      OverloadPlan.Phase phase,
      long startMillis,
      List<OverloadWatch.Sample> looks,
      List<JobApi.Checkpoint> completed,
      long drainedLag) {
    OverloadWatch.Sample first = looks.get(0);
    OverloadWatch.Sample last = looks.get(looks.size() - 1);
    double seconds = Math.max(1, last.atMillis() - first.atMillis()) / 1000.0;
    long sinkRecords = 0;
    for (int i = 1; i < looks.size(); i++) {
      OverloadWatch.Sample before = looks.get(i - 1);
      OverloadWatch.Sample after = looks.get(i);
      if (before.process() == after.process() && before.sinkRecords() >= 0) {
        sinkRecords += Math.max(0, after.sinkRecords() - before.sinkRecords());
      }
    }
    long maxLag = looks.stream().mapToLong(OverloadWatch.Sample::lag).max().orElse(0);
    long drainMillis =
        phase.kind() == PhaseKind.RECOVERY
            ? looks.stream()
                .filter(look -> look.lag() >= 0 && look.lag() <= drainedLag)
                .mapToLong(look -> look.atMillis() - startMillis)
                .findFirst()
                .orElse(-1)
            : -1;
    List<Long> durations = new ArrayList<>();
    completed.forEach(checkpoint -> durations.add(checkpoint.durationMillis()));
    return new PhaseFigures(
        phase.number(),
        phase.kind(),
        phase.length().toSeconds(),
        phase.rate(),
        Math.round((last.fedRecords() - first.fedRecords()) / seconds),
        Math.round(sinkRecords / seconds),
        maxLag,
        last.lag(),
        phase.kind() == PhaseKind.RECOVERY ? drainMillis >= 0 : null,
        drainMillis,
        completed.size(),
        Percentile.of(durations, 99),
        Math.max(
            0,
            looks.stream().mapToLong(OverloadWatch.Sample::transactionAgeMillis).max().orElse(0)));
  }

  String line() {
    return String.format(
        Locale.ROOT,
        "phase %d %-8s %3d s: offered %d/s fed %d/s sink %d/s max-lag %d end-lag %d%s"
            + " checkpoints %d p99 %d ms max-txn-age %.1f s",
        number,
        kind.key(),
        seconds,
        offeredRate,
        fedRate,
        sinkRate,
        maxLag,
        lagAtEnd,
        drained == null
            ? ""
            : drained
                ? String.format(Locale.ROOT, " drained=yes in %.1f s", drainMillis / 1000.0)
                : " drained=no",
        checkpoints,
        checkpointP99Millis,
        maxTransactionAgeMillis / 1000.0);
  }

  Map<String, Object> report() {
    Map<String, Object> report = new LinkedHashMap<>();
    report.put("phase", number);
    report.put("kind", kind.key());
    report.put("seconds", seconds);
    report.put("offered_per_second", offeredRate);
    report.put("fed_per_second", fedRate);
    report.put("sink_per_second", sinkRate);
    report.put("max_lag", maxLag);
    report.put("lag_at_end", lagAtEnd);
    if (drained != null) {
      report.put("lag_drained", drained);
      if (drained) {
        report.put("drain_ms", drainMillis);
      }
    }
    report.put("checkpoints", checkpoints);
    report.put("checkpoint_p99_ms", checkpointP99Millis);
    report.put("max_transaction_age_ms", maxTransactionAgeMillis);
    return report;
  }
}
