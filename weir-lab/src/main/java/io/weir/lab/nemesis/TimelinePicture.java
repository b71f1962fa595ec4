package io.weir.lab.nemesis;

import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * The timeline of a nemesis run as an SVG picture: each fault a coloured band over the time it
 * lasted, labelled with its target, and the committed output's running count as a line over them,
 * so a reader sees where the output stalled and which fault was in place.
 */
final class TimelinePicture {
  private static final int WIDTH = 1200;
  private static final int HEIGHT = 420;
  private static final int LEFT = 70;
  private static final int RIGHT = 20;
  private static final int TOP = 40;
  private static final int BOTTOM = 60;
  private static final Map<FaultKind, String> COLOURS =
      Map.of(
          FaultKind.PARTITION, "#f4a261",
          FaultKind.PAUSE, "#8ecae6",
          FaultKind.KILL, "#e76f51",
          FaultKind.BROKER, "#b5a1e0",
          FaultKind.SPLIT, "#e9c46a",
          FaultKind.DISK, "#90be6d");

  private final Instant start;
  private final Instant end;
  private final List<Fault> faults;
  private final List<CommittedOutputWatch.Arrival> arrivals;

  TimelinePicture(
      Instant start, Instant end, List<Fault> faults, List<CommittedOutputWatch.Arrival> arrivals) {
    this.start = start;
    this.end = end;
    this.faults = faults;
    this.arrivals = arrivals;
  }

  String svg() {
    StringBuilder svg = new StringBuilder();
    svg.append(
        String.format(
            Locale.ROOT,
            "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"%d\" height=\"%d\""
                + " font-family=\"sans-serif\" font-size=\"11\">%n",
            WIDTH,
            HEIGHT));
    svg.append("<rect width=\"100%\" height=\"100%\" fill=\"white\"/>\n");
    svg.append(
        String.format(
            Locale.ROOT,
            "<text x=\"%d\" y=\"20\" font-size=\"14\">Nemesis: faults (bands) and committed"
                + " output (line)</text>%n",
            LEFT));
    appendFaults(svg);
    appendOutput(svg);
    appendAxes(svg);
    appendLegend(svg);
    svg.append("</svg>\n");
    return svg.toString();
  }

  private void appendFaults(StringBuilder svg) {
    int row = 0;
    for (Fault fault : faults) {
      double from = x(fault.start());
      double to = Math.max(from + 1, x(fault.end()));
      svg.append(
          String.format(
              Locale.ROOT,
              "<rect x=\"%.1f\" y=\"%d\" width=\"%.1f\" height=\"%d\" fill=\"%s\""
                  + " fill-opacity=\"0.55\"><title>%s %s</title></rect>%n",
              from,
              TOP,
              to - from,
              plotHeight(),
              COLOURS.get(fault.kind()),
              fault.kind().key(),
              escape(fault.target())));
      svg.append(
          String.format(
              Locale.ROOT,
              "<text x=\"%.1f\" y=\"%d\" font-size=\"9\">%s</text>%n",
              from + 2,
              TOP + 12 + (row % 4) * 11,
              escape(fault.target())));
      row++;
    }
  }

  private void appendOutput(StringBuilder svg) {
    long most = arrivals.isEmpty() ? 1 : Math.max(1, arrivals.get(arrivals.size() - 1).committed());
    StringBuilder points = new StringBuilder();
    points.append(String.format(Locale.ROOT, "%.1f,%d ", x(start), TOP + plotHeight()));
    for (CommittedOutputWatch.Arrival arrival : arrivals) {
      double y = TOP + plotHeight() - (double) arrival.committed() / most * plotHeight();
      points.append(String.format(Locale.ROOT, "%.1f,%.1f ", x(arrival.at()), y));
    }
    svg.append(
        "<polyline fill=\"none\" stroke=\"#1d3557\" stroke-width=\"1.5\" points=\""
            + points.toString().strip()
            + "\"/>\n");
    svg.append(
        String.format(
            Locale.ROOT,
            "<text x=\"5\" y=\"%d\">%d</text><text x=\"5\" y=\"%d\">0</text>%n",
            TOP + 10,
            most,
            TOP + plotHeight()));
  }

  private void appendAxes(StringBuilder svg) {
    int bottom = TOP + plotHeight();
    svg.append(
        String.format(
            Locale.ROOT,
            "<line x1=\"%d\" y1=\"%d\" x2=\"%d\" y2=\"%d\" stroke=\"black\"/>%n",
            LEFT,
            bottom,
            WIDTH - RIGHT,
            bottom));
    long total = Math.max(1, Duration.between(start, end).toSeconds());
    long step = Math.max(10, (total / 10 + 9) / 10 * 10);
    for (long second = 0; second <= total; second += step) {
      double x = x(start.plusSeconds(second));
      svg.append(
          String.format(
              Locale.ROOT,
              "<line x1=\"%.1f\" y1=\"%d\" x2=\"%.1f\" y2=\"%d\" stroke=\"black\"/>"
                  + "<text x=\"%.1f\" y=\"%d\" text-anchor=\"middle\">%d s</text>%n",
              x,
              bottom,
              x,
              bottom + 4,
              x,
              bottom + 16,
              second));
    }
  }

  private void appendLegend(StringBuilder svg) {
    int x = LEFT;
    int y = HEIGHT - 15;
    for (FaultKind kind : FaultKind.all()) {
      svg.append(
          String.format(
              Locale.ROOT,
              "<rect x=\"%d\" y=\"%d\" width=\"12\" height=\"12\" fill=\"%s\"/>"
                  + "<text x=\"%d\" y=\"%d\">%s</text>%n",
              x,
              y - 10,
              COLOURS.get(kind),
              x + 16,
              y,
              kind.key()));
      x += 100;
    }
    svg.append(
        String.format(
            Locale.ROOT,
            "<line x1=\"%d\" y1=\"%d\" x2=\"%d\" y2=\"%d\" stroke=\"#1d3557\" stroke-width=\"2\"/>"
                + "<text x=\"%d\" y=\"%d\">committed output records (read_committed)</text>%n",
            x,
            y - 4,
            x + 20,
            y - 4,
            x + 26,
            y));
  }

  private int plotHeight() {
    return HEIGHT - TOP - BOTTOM;
  }

  private double x(Instant at) {
    double total = Math.max(1, Duration.between(start, end).toMillis());
    double offset = Duration.between(start, at).toMillis();
    return LEFT + Math.max(0, Math.min(1, offset / total)) * (WIDTH - LEFT - RIGHT);
  }

  private static String escape(String text) {
    return text.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;");
  }
}
