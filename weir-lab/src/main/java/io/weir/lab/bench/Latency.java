package io.weir.lab.bench;

import java.util.Arrays;

/** End-to-end latency percentiles, from the time each record was produced to when it was seen. */
record Latency(double p50Millis, double p99Millis) {

  /** Ids never seen (0) are left out; they show up as lost in the verifier's count. */
  static Latency of(long[] producedNanos, long[] visibleNanos) {
    long[] nanos = new long[producedNanos.length];
    int size = 0;
    for (int i = 0; i < producedNanos.length; i++) {
      if (visibleNanos[i] != 0) {
        nanos[size++] = visibleNanos[i] - producedNanos[i];
      }
    }
    if (size == 0) {
      return new Latency(Double.NaN, Double.NaN);
    }
    long[] sorted = Arrays.copyOf(nanos, size);
    Arrays.sort(sorted);
    return new Latency(percentile(sorted, 0.50), percentile(sorted, 0.99));
  }

  private static double percentile(long[] sortedNanos, double quantile) {
    int index =
        (int) Math.min(sortedNanos.length - 1, Math.ceil(quantile * sortedNanos.length) - 1);
    return sortedNanos[Math.max(0, index)] / 1e6;
  }
}
