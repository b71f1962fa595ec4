package io.weir.runtime.exchange;

import java.util.concurrent.TimeUnit;

/**
 * The records per second a gate's reader works through while it is busy, smoothed over periods:
 * time the reader spent waiting for input does not count, so a task that keeps up with a slow input
 * still measures what it could take. Fed by the reader's thread once per batch it takes and once
 * per wait, never per record; a batch's records count when the reader comes back for the next one
 * (or waits), as that is when it finished them.
 */
final class ThroughputMeter {
  /** Long enough to span several batches of a fast task, short enough to follow a change. */
  private static final long PERIOD_NANOS = TimeUnit.MILLISECONDS.toNanos(100);

  /** The newest period's weight in the smoothed figure. */
  private static final double NEWEST_WEIGHT = 0.3;

  private long periodStartNanos;
  private long periodRecords;
  private long periodIdleNanos;
  private int recordsInProgress;
  private double recordsPerSecond = Double.NaN;

  ThroughputMeter(long nowNanos) {
    this.periodStartNanos = nowNanos;
  }

  /**
   * The reader took a batch of {@code records}.
   *
   * @return whether a period ended, so that {@link #recordsPerSecond()} changed
   */
  boolean taken(int records, long nowNanos) {
    periodRecords += recordsInProgress;
    recordsInProgress = records;
    long elapsed = nowNanos - periodStartNanos;
    if (elapsed < PERIOD_NANOS) {
      return false;
    }
    long busy = elapsed - periodIdleNanos;
    long finished = periodRecords;
    periodStartNanos = nowNanos;
    periodRecords = 0;
    periodIdleNanos = 0;
    if (busy <= 0 || finished == 0) {
      return false;
    }
    double measured = finished * 1e9 / busy;
    recordsPerSecond =
        Double.isNaN(recordsPerSecond)
            ? measured
            : NEWEST_WEIGHT * measured + (1 - NEWEST_WEIGHT) * recordsPerSecond;
    return true;
  }

  /** The reader waited this long for input: it had finished the batch it took before. */
  void waited(long nanos) {
    periodRecords += recordsInProgress;
    recordsInProgress = 0;
    periodIdleNanos += nanos;
  }

  /** Smoothed records per second of busy time; NaN before the first period ended. */
  double recordsPerSecond() {
    return recordsPerSecond;
  }
}
