package io.weir.lab.overload;

import io.weir.lab.TimelineChart;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;

/**
 * An overload soak over time as an SVG picture: its phases as bands, and over them the rate fed,
 * the rate the sink took in, the group's lag and each checkpoint's duration (at its completion), so
 * that a reader sees the backlog build and drain and what it did to the checkpoints.
 */
public final class OverloadPicture {
  private static final String OVERLOAD_COLOUR = "#f4a261";
  private static final String RECOVERY_COLOUR = "#90be6d";

  /** When a phase ran, in wall-clock milliseconds. */
  record PhaseWindow(int number, PhaseKind kind, long fromMillis, long toMillis) {}

  private final List<PhaseWindow> phases;
  private final List<OverloadWatch.Sample> samples;
  private final List<JobApi.Checkpoint> checkpoints;

  OverloadPicture(
      List<PhaseWindow> phases,
      List<OverloadWatch.Sample> samples,
      List<JobApi.Checkpoint> checkpoints) {
    this.phases = List.copyOf(phases);
    this.samples = List.copyOf(samples);
    this.checkpoints = List.copyOf(checkpoints);
  }

  String svg() {
    List<TimelineChart.Band> bands = new ArrayList<>();
    for (PhaseWindow phase : phases) {
      String name = "phase " + phase.number() + " " + phase.kind().key();
      bands.add(
          new TimelineChart.Band(
              Instant.ofEpochMilli(phase.fromMillis()),
              Instant.ofEpochMilli(phase.toMillis()),
              phase.kind() == PhaseKind.OVERLOAD ? OVERLOAD_COLOUR : RECOVERY_COLOUR,
              name,
              name));
    }
    List<TimelineChart.Point> fed = new ArrayList<>();
    List<TimelineChart.Point> sink = new ArrayList<>();
    List<TimelineChart.Point> lag = new ArrayList<>();
    for (int i = 1; i < samples.size(); i++) {
      OverloadWatch.Sample before = samples.get(i - 1);
      OverloadWatch.Sample after = samples.get(i);
      Instant at = Instant.ofEpochMilli(after.atMillis());
      double seconds = Math.max(1, after.atMillis() - before.atMillis()) / 1000.0;
      fed.add(new TimelineChart.Point(at, (after.fedRecords() - before.fedRecords()) / seconds));
      if (after.process() == before.process() && before.sinkRecords() >= 0) {
        double taken = Math.max(0, after.sinkRecords() - before.sinkRecords());
        sink.add(new TimelineChart.Point(at, taken / seconds));
      }
      if (after.lag() >= 0) {
        lag.add(new TimelineChart.Point(at, after.lag()));
      }
    }
    List<TimelineChart.Point> durations = new ArrayList<>();
    checkpoints.stream()
        .filter(JobApi.Checkpoint::completed)
        .sorted((a, b) -> Long.compare(a.triggerMillis(), b.triggerMillis()))
        .forEach(
            checkpoint ->
                durations.add(
                    new TimelineChart.Point(
                        Instant.ofEpochMilli(
                            checkpoint.triggerMillis() + checkpoint.durationMillis()),
                        checkpoint.durationMillis())));
    return new TimelineChart(
            "Overload soak: phases (bands), rates, lag and checkpoint durations (lines)",
            Instant.ofEpochMilli(samples.isEmpty() ? 0 : samples.get(0).atMillis()),
            Instant.ofEpochMilli(
                samples.isEmpty() ? 1 : samples.get(samples.size() - 1).atMillis()),
            bands,
            List.of(
                new TimelineChart.Key(OVERLOAD_COLOUR, "overload"),
                new TimelineChart.Key(RECOVERY_COLOUR, "recovery")),
            List.of(
                new TimelineChart.Series("fed records/s", "#457b9d", fed),
                new TimelineChart.Series("sink records/s", "#1d3557", sink),
                new TimelineChart.Series("lag, records", "#e63946", lag),
                new TimelineChart.Series("checkpoint ms", "#6a4c93", durations)))
        .svg();
  }
}
