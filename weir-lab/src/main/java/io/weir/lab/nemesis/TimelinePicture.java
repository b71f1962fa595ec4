package io.weir.lab.nemesis;

import io.weir.lab.TimelineChart;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * The timeline of a nemesis run as an SVG picture: each fault a coloured band over the time it
 * lasted, labelled with its target, and the committed output's running count as a line over them,
 * so a reader sees where the output stalled and which fault was in place.
 */
final class TimelinePicture {
  private static final Map<FaultKind, String> COLOURS =
      Map.of(
          FaultKind.PARTITION, "#f4a261",
          FaultKind.PAUSE, "#8ecae6",
          FaultKind.KILL, "#e76f51",
          FaultKind.BROKER, "#b5a1e0",
          FaultKind.SPLIT, "#e9c46a",
          FaultKind.DISK, "#90be6d",
          FaultKind.ZOMBIE, "#f28482",
          FaultKind.LEADER, "#84a59d");

  private final Instant start;
  private final Instant end;
  private final List<Fault> faults;
  private final List<OutputWatch.Arrival> arrivals;

  TimelinePicture(
      Instant start, Instant end, List<Fault> faults, List<OutputWatch.Arrival> arrivals) {
    this.start = start;
    this.end = end;
    this.faults = faults;
    this.arrivals = arrivals;
  }

  String svg() {
    List<TimelineChart.Band> bands = new ArrayList<>();
    for (Fault fault : faults) {
      bands.add(
          new TimelineChart.Band(
              fault.start(),
              fault.end(),
              COLOURS.get(fault.kind()),
              fault.target(),
              fault.kind().key() + " " + fault.target()));
    }
    List<TimelineChart.Key> keys = new ArrayList<>();
    for (FaultKind kind : FaultKind.all()) {
      keys.add(new TimelineChart.Key(COLOURS.get(kind), kind.key()));
    }
    List<TimelineChart.Point> committed = new ArrayList<>();
    committed.add(new TimelineChart.Point(start, 0));
    arrivals.forEach(
        arrival -> committed.add(new TimelineChart.Point(arrival.at(), arrival.committed())));
    return new TimelineChart(
            "Nemesis: faults (bands) and committed output (line)",
            start,
            end,
            bands,
            keys,
            List.of(
                new TimelineChart.Series(
                    "committed output records (read_committed)", "#1d3557", committed)))
        .svg();
  }
}
