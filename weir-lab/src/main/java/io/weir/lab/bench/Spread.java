package io.weir.lab.bench;

import java.util.Arrays;
import java.util.List;

/** The median and the range of one figure over the repeated runs of a pipeline. */
public record Spread(double median, double min, double max) {
  /** Of the given values; NaN throughout when there are none. */
  public static Spread of(List<Double> values) {
    if (values.isEmpty()) {
      return new Spread(Double.NaN, Double.NaN, Double.NaN);
    }
    double[] sorted = values.stream().mapToDouble(Double::doubleValue).toArray();
    Arrays.sort(sorted);
    int middle = sorted.length / 2;
    double median =
        sorted.length % 2 == 1 ? sorted[middle] : (sorted[middle - 1] + sorted[middle]) / 2;
    return new Spread(median, sorted[0], sorted[sorted.length - 1]);
  }

  /** "median (min–max)", or the median alone when there was one run. */
  String format(String number) {
    String median = String.format(number, this.median);
    return min == max
        ? median
        : median + " (" + String.format(number, min) + "–" + String.format(number, max) + ")";
  }
}
