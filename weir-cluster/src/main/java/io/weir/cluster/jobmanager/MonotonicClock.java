package io.weir.cluster.jobmanager;

import java.time.Clock;
import java.time.Instant;
import java.time.ZoneId;
import java.time.ZoneOffset;
import java.util.function.LongSupplier;

/**
 * A clock for durations only: it reads the wall clock once, when created, and moves from there with
 * a monotonic clock ({@code System.nanoTime}). A wall clock stepped back (NTP, an operator) would
 * stretch a heartbeat timeout or the wait for a lost task manager's lease, and one stepped forward
 * would end them early, letting an attempt deploy beside a fence that may still land. Its instants
 * drift from the wall clock by every step the wall clock takes since; never show them as dates.
 */
final class MonotonicClock extends Clock {
  private final long originMillis;
  private final long originNanos;
  private final LongSupplier nanoTime;

  MonotonicClock() {
    this(Clock.systemUTC(), System::nanoTime);
  }

  /**
   * @param wall read once, for where this clock starts
   * @param nanoTime a monotonic clock in nanoseconds, as {@code System::nanoTime}
   */
  MonotonicClock(Clock wall, LongSupplier nanoTime) {
    this.nanoTime = nanoTime;
    this.originNanos = nanoTime.getAsLong();
    this.originMillis = wall.millis();
  }

  @Override
  public long millis() {
    return originMillis + (nanoTime.getAsLong() - originNanos) / 1_000_000;
  }

  @Override
  public Instant instant() {
    return Instant.ofEpochMilli(millis());
  }

  @Override
  public ZoneId getZone() {
    return ZoneOffset.UTC;
  }

  @Override
  public Clock withZone(ZoneId zone) {
    return this;
  }
}
