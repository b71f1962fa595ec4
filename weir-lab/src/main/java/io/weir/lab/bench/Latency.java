package io.weir.lab.bench;

import java.util.Arrays;

/**
 * End-to-end latency percentiles: per record, the time its effect was seen downstream minus the
 * time it was sent; nearest-rank percentiles of those differences.
 */
record Latency(double p50Millis, double p99Millis) {

  /**
   * The percentiles of {@code visibleNanos[i] - producedNanos[i]}; a record with no time on either
   * side (0) is left out: unseen ones show up as lost in the verifier's count.
   */
  static Latency of(long[] producedNanos, long[] visibleNanos) {
    long[] nanos = new long[producedNanos.length];
    int size = 0;
    for (int i = 0; i < producedNanos.length; i++) {
      if (producedNanos[i] != 0 && visibleNanos[i] != 0) {
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
