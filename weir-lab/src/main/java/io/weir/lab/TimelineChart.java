package io.weir.lab;

import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Locale;

/**
 * A lab run over time as an SVG picture: coloured bands over the spans when something was in place
 * (a fault, a phase of the input), each labelled, and lines of measured values over them, each
 * scaled to its own largest value (which the legend gives), so that a reader sees how the values
 * moved with what was in place.
 */
public final class TimelineChart {
  private static final int WIDTH = 1200;
  private static final int HEIGHT = 420;
  private static final int LEFT = 70;
  private static final int RIGHT = 20;
  private static final int TOP = 40;
  private static final int BOTTOM = 60;
  private static final int LEGEND_STEP = 100;

  /** A span when something was in place; {@code label} is written on it, {@code title} on hover. */
  public record Band(Instant from, Instant to, String colour, String label, String title) {}

  /** A colour the legend explains. */
  public record Key(String colour, String name) {}

  /** A value measured at a moment. */
  public record Point(Instant at, double value) {}

  /** A line of values, drawn from the bottom of the plot up to its own largest value. */
  public record Series(String name, String colour, List<Point> points) {
    double largest() {
      return points.stream().mapToDouble(Point::value).max().orElse(0);
    }
  }

  private final String title;
  private final Instant start;
  private final Instant end;
  private final List<Band> bands;
  private final List<Key> bandKeys;
  private final List<Series> series;

  /** {@code bandKeys}: the legend of the bands' colours. */
  public TimelineChart(
      String title,
      Instant start,
      Instant end,
      List<Band> bands,
      List<Key> bandKeys,
      List<Series> series) {
    this.title = title;
    this.start = start;
    this.end = end;
    this.bands = List.copyOf(bands);
    this.bandKeys = List.copyOf(bandKeys);
    this.series = List.copyOf(series);
  }

  public String svg() {
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
            "<text x=\"%d\" y=\"20\" font-size=\"14\">%s</text>%n",
            LEFT,
            escape(title)));
    appendBands(svg);
    series.forEach(line -> appendSeries(svg, line));
    appendAxes(svg);
    appendLegend(svg);
    svg.append("</svg>\n");
    return svg.toString();
  }

  private void appendBands(StringBuilder svg) {
    int row = 0;
    for (Band band : bands) {
      double from = x(band.from());
      double to = Math.max(from + 1, x(band.to()));
      svg.append(
          String.format(
              Locale.ROOT,
              "<rect x=\"%.1f\" y=\"%d\" width=\"%.1f\" height=\"%d\" fill=\"%s\""
                  + " fill-opacity=\"0.55\"><title>%s</title></rect>%n",
              from,
              TOP,
              to - from,
              plotHeight(),
              band.colour(),
              escape(band.title())));
      svg.append(
          String.format(
              Locale.ROOT,
              "<text x=\"%.1f\" y=\"%d\" font-size=\"9\">%s</text>%n",
              from + 2,
              TOP + 12 + (row % 4) * 11,
              escape(band.label())));
      row++;
    }
  }

  private void appendSeries(StringBuilder svg, Series line) {
    double largest = Math.max(1, line.largest());
    StringBuilder points = new StringBuilder();
    for (Point point : line.points()) {
      double y = TOP + plotHeight() - point.value() / largest * plotHeight();
      points.append(String.format(Locale.ROOT, "%.1f,%.1f ", x(point.at()), y));
    }
    svg.append(
        String.format(
            Locale.ROOT,
            "<polyline fill=\"none\" stroke=\"%s\" stroke-width=\"1.5\" points=\"%s\"/>%n",
            line.colour(),
            points.toString().strip()));
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
    if (series.size() == 1) {
      svg.append(
          String.format(
              Locale.ROOT,
              "<text x=\"5\" y=\"%d\">%d</text><text x=\"5\" y=\"%d\">0</text>%n",
              TOP + 10,
              Math.round(Math.max(1, series.get(0).largest())),
              bottom));
    }
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
    for (Key key : bandKeys) {
      svg.append(
          String.format(
              Locale.ROOT,
              "<rect x=\"%d\" y=\"%d\" width=\"12\" height=\"12\" fill=\"%s\"/>"
                  + "<text x=\"%d\" y=\"%d\">%s</text>%n",
              x,
              y - 10,
              key.colour(),
              x + 16,
              y,
              escape(key.name())));
      x += LEGEND_STEP;
    }
    for (Series line : series) {
      String name =
          series.size() == 1
              ? line.name()
              : String.format(Locale.ROOT, "%s (top %,.0f)", line.name(), line.largest());
      svg.append(
          String.format(
              Locale.ROOT,
              "<line x1=\"%d\" y1=\"%d\" x2=\"%d\" y2=\"%d\" stroke=\"%s\" stroke-width=\"2\"/>"
                  + "<text x=\"%d\" y=\"%d\">%s</text>%n",
              x,
              y - 4,
              x + 20,
              y - 4,
              line.colour(),
              x + 26,
              y,
              escape(name)));
      x += 26 + 6 * name.length() + 20;
    }
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
