package io.weir.web;

import java.util.concurrent.ConcurrentHashMap;

/**
 * Per-second rates of monotonic counters (records, blocked time), from the difference between two
 * reads of the same counter. A counter that went down (the job restarted) starts over. Thread safe.
 */
final class RateTracker {
  private record Sample(long value, long atMillis, double rate) {}

  private static final long MIN_SPAN_MILLIS = 200;

  private final ConcurrentHashMap<String, Sample> samples = new ConcurrentHashMap<>();

  /** The rate per second of the counter {@code key} since its previous read, 0 on the first. */
  double rate(String key, long value, long nowMillis) {
    Sample next =
        samples.compute(
            key,
            (k, previous) -> {
              if (previous == null || value < previous.value()) {
                return new Sample(value, nowMillis, 0);
              }
              long span = nowMillis - previous.atMillis();
              if (span < MIN_SPAN_MILLIS) {
                // Two reads close together (two browser tabs): keep the longer span's rate.
                return previous;
              }
              return new Sample(value, nowMillis, (value - previous.value()) * 1000.0 / span);
            });
    return next.rate();
  }
}
