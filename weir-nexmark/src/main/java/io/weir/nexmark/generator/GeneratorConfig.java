package io.weir.nexmark.generator;

import java.io.Serializable;
import java.time.Duration;
import java.time.Instant;
import java.util.Random;

/**
 * What the generator makes of an event's position in the stream: its event number (shuffled within
 * groups of {@code outOfOrderGroupSize}, so that event time runs out of order within a bound), its
 * event time ({@code eventsPerSecond} events per second of event time from {@code baseTime}) and
 * the random numbers its fields come from (a function of {@code seed} and the event number only).
 *
 * @param seed varies every field of every event; the same seed makes the same stream
 * @param eventsPerSecond how fast event time advances: this many events per second of it
 * @param baseTime the event time of event number 0
 * @param outOfOrderGroupSize events are shuffled within consecutive groups of this many; 1 keeps
 *     event time in order
 */
public record GeneratorConfig(
    long seed, long eventsPerSecond, Instant baseTime, int outOfOrderGroupSize)
    implements Serializable {
  /** The published model's default rate. */
  public static final long DEFAULT_EVENTS_PER_SECOND = 10_000;

  public static final Instant DEFAULT_BASE_TIME = Instant.parse("2026-01-01T00:00:00Z");
  public static final int DEFAULT_OUT_OF_ORDER_GROUP_SIZE = 100;

  // Shuffles positions within a group: a prime, so that it permutes every group size it does not
  // divide.
  private static final long SHUFFLE_PRIME = 953;

  public GeneratorConfig {
    if (eventsPerSecond < 1 || eventsPerSecond > 1_000_000) {
      throw new IllegalArgumentException(
          "The event rate must be 1 to 1,000,000 events per second, not " + eventsPerSecond);
    }
    if (outOfOrderGroupSize < 1 || outOfOrderGroupSize % SHUFFLE_PRIME == 0) {
      throw new IllegalArgumentException(
          "The out-of-order group size must be positive and not a multiple of "
              + SHUFFLE_PRIME
              + ", not "
              + outOfOrderGroupSize);
    }
  }

  /** Seed 0, the default rate and base time, events out of order within groups of 100. */
  public static GeneratorConfig defaults() {
    return new GeneratorConfig(
        0, DEFAULT_EVENTS_PER_SECOND, DEFAULT_BASE_TIME, DEFAULT_OUT_OF_ORDER_GROUP_SIZE);
  }

  public GeneratorConfig withEventsPerSecond(long rate) {
    return new GeneratorConfig(seed, rate, baseTime, outOfOrderGroupSize);
  }

  public GeneratorConfig withSeed(long newSeed) {
    return new GeneratorConfig(newSeed, eventsPerSecond, baseTime, outOfOrderGroupSize);
  }

  /** The number (and id) of the event at {@code position} in the stream. */
  public long eventNumber(long position) {
    long base = (position / outOfOrderGroupSize) * outOfOrderGroupSize;
    return base + (position * SHUFFLE_PRIME) % outOfOrderGroupSize;
  }

  /** The event time of event {@code eventNumber}, in epoch millis. */
  public long timestamp(long eventNumber) {
    return baseTime.toEpochMilli() + eventNumber * 1000 / eventsPerSecond;
  }

  /**
   * How far behind the latest event time seen an event can be: the event-time span of one group, so
   * a watermark this far behind never makes an event late.
   */
  public Duration maxOutOfOrderness() {
    return Duration.ofMillis(timestamp(outOfOrderGroupSize) - timestamp(0) + 1);
  }

  /**
   * The random numbers of event {@code eventNumber}'s fields. The seed is mixed first: the first
   * numbers of {@link Random}s with consecutive seeds are correlated, which skews the share of hot
   * auctions.
   */
  Random random(long eventNumber) {
    long mixed = eventNumber + seed * 0x9E3779B97F4A7C15L;
    mixed = (mixed ^ (mixed >>> 33)) * 0xFF51AFD7ED558CCDL;
    mixed = (mixed ^ (mixed >>> 33)) * 0xC4CEB9FE1A85EC53L;
    return new Random(mixed ^ (mixed >>> 33));
  }
}
