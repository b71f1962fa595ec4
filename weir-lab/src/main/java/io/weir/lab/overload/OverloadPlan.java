package io.weir.lab.overload;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

/**
 * The input of an overload soak. The job's map waits {@code recordDelayMicros} a record, so its one
 * subtask processes about {@link #capacityPerSecond()} records a second; the soak alternates an
 * overload phase at three times that rate with a recovery phase at a quarter of it, five times as
 * long (or a little longer, the overload being whole seconds). The recovery phase is that long
 * because the backlog of an overload phase (twice the capacity times its length) drains at three
 * quarters of the capacity, in about 2.7 times the overload's length: the rest is margin for a
 * machine on which the job runs slower than its nominal capacity.
 *
 * @param recordDelayMicros what the job's map waits for each record
 * @param total how long the input runs, every phase included
 */
public record OverloadPlan(long recordDelayMicros, Duration total) {
  static final int OVERLOAD_FACTOR = 3;
  static final int RECOVERY_DIVISOR = 4;
  private static final int RECOVERY_LENGTH_FACTOR = 5;

  /** A cycle (one overload and one recovery phase) lasts about this long in longer soaks. */
  private static final Duration CYCLE = Duration.ofSeconds(100);

  public OverloadPlan {
    if (recordDelayMicros < 1) {
      throw new IllegalArgumentException(
          "the record delay must be at least 1 microsecond, got " + recordDelayMicros);
    }
    if (total.toSeconds() < 10) {
      throw new IllegalArgumentException(
          "an overload soak needs at least 10 seconds, got " + total.toSeconds());
    }
  }

  /** One phase: its place in the soak, what it offers, from when (since the start) and how long. */
  public record Phase(int number, PhaseKind kind, Duration start, Duration length, long rate) {
    public Duration end() {
      return start.plus(length);
    }
  }

  public long capacityPerSecond() {
    return Math.max(1, 1_000_000 / recordDelayMicros);
  }

  public long overloadRate() {
    return OVERLOAD_FACTOR * capacityPerSecond();
  }

  public long recoveryRate() {
    return Math.max(1, capacityPerSecond() / RECOVERY_DIVISOR);
  }

  /** The phases in order: overload, recovery, overload, ... ending with a recovery. */
  public List<Phase> phases() {
    long cycles = Math.max(1, Math.round((double) total.toMillis() / CYCLE.toMillis()));
    Duration cycle = total.dividedBy(cycles);
    Duration overload = Duration.ofSeconds(cycle.toSeconds() / (1 + RECOVERY_LENGTH_FACTOR));
    Duration recovery = cycle.minus(overload);
    List<Phase> phases = new ArrayList<>();
    Duration start = Duration.ZERO;
    for (int c = 0; c < cycles; c++) {
      phases.add(new Phase(phases.size() + 1, PhaseKind.OVERLOAD, start, overload, overloadRate()));
      start = start.plus(overload);
      phases.add(new Phase(phases.size() + 1, PhaseKind.RECOVERY, start, recovery, recoveryRate()));
      start = start.plus(recovery);
    }
    return phases;
  }
}
