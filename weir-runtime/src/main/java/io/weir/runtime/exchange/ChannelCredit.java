package io.weir.runtime.exchange;

import java.time.Duration;
import java.util.function.LongSupplier;

/**
 * Each input channel's credit at one gate: the records a sender may put in one batch to it.
 * Adaptive credit follows the gate's measured throughput so that the batches in flight to the gate
 * — those it holds, one a sender is filling or handing over on each channel, and those on their way
 * from a sender in another process — take about the target time to process, never fewer records a
 * batch than the floor nor more than the ceiling. Every channel of a gate gets the same credit, as
 * the gate's batches are shared by its channels.
 *
 * <p>The gate's reader thread feeds the throughput ({@link #taken}, {@link #waited}); senders read
 * the credit ({@link #recordsPerBatch}) on any thread, once per batch they start. Fixed credit
 * keeps the ceiling and measures nothing.
 */
public final class ChannelCredit {
  /**
   * Fewest records a batch: below this the hand-over would cost more than the records, and a task
   * that slow holds little in flight anyway.
   */
  public static final int FLOOR = 16;

  private final long targetNanos;
  private final int ceiling;
  private final int batchesInFlight;
  private final LongSupplier nanoClock;
  private final ThroughputMeter meter;
  private volatile int recordsPerBatch;

  private ChannelCredit(
      long targetNanos, int ceiling, int batchesInFlight, LongSupplier nanoClock) {
    if (ceiling < FLOOR) {
      throw new IllegalArgumentException(
          "A batch of " + ceiling + " records is below the credit's floor of " + FLOOR);
    }
    this.targetNanos = targetNanos;
    this.ceiling = ceiling;
    this.batchesInFlight = batchesInFlight;
    this.nanoClock = nanoClock;
    this.meter = targetNanos > 0 ? new ThroughputMeter(nanoClock.getAsLong()) : null;
    this.recordsPerBatch = ceiling;
  }

  /** Full batches of {@code ceiling} records, whatever the throughput. */
  public static ChannelCredit fixed(int ceiling) {
    return new ChannelCredit(0, ceiling, 1, System::nanoTime);
  }

  /**
   * Credit that follows the throughput, starting at the ceiling until the first measurement; fixed
   * when {@code target} is zero.
   *
   * @param batchesInFlight how many batches can be in flight to the gate: those it holds and one
   *     per channel at its sender, and for a sender in another process those its credits let it
   *     have on their way
   * @param nanoClock {@link System#nanoTime} outside tests
   */
  public static ChannelCredit adaptive(
      Duration target, int ceiling, int batchesInFlight, LongSupplier nanoClock) {
    return new ChannelCredit(target.toNanos(), ceiling, batchesInFlight, nanoClock);
  }

  /** The records a sender may put in its next batch to the gate. */
  public int recordsPerBatch() {
    return recordsPerBatch;
  }

  /** The smoothed records per second the gate's reader works through; NaN when not measured. */
  public double recordsPerSecond() {
    return meter == null ? Double.NaN : meter.recordsPerSecond();
  }

  /** Called by the reader, for a batch it took. */
  void taken(int records) {
    if (meter != null && meter.taken(records, nanoClock.getAsLong())) {
      double budget = meter.recordsPerSecond() * targetNanos / 1e9;
      long perBatch = Math.round(budget / batchesInFlight);
      recordsPerBatch = (int) Math.max(FLOOR, Math.min(ceiling, perBatch));
    }
  }

  /** Called by the reader before it waits for input; returns when the wait started. */
  long waitStarts() {
    return meter == null ? 0 : nanoClock.getAsLong();
  }

  /** Called by the reader after a wait for input that began at {@code startNanos}. */
  void waitEnded(long startNanos) {
    if (meter != null) {
      meter.waited(nanoClock.getAsLong() - startNanos);
    }
  }
}
