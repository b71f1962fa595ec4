package io.weir.api.datastream;

import io.weir.api.annotation.Public;
import java.io.Serializable;
import java.time.Duration;

/** What the job does when a task fails: restore all tasks from the latest checkpoint, or stop. */
@Public
public sealed interface RestartStrategy extends Serializable {
  /** Fail the job on the first failure. */
  record None() implements RestartStrategy {}

  /** Restart up to {@code attempts} times, waiting {@code delay} each time. */
  record FixedDelay(int attempts, Duration delay) implements RestartStrategy {}

  /** Restart without limit, waiting twice as long each time up to {@code maxDelay}. */
  record ExponentialBackoff(Duration initialDelay, Duration maxDelay) implements RestartStrategy {}

  /** Restart while fewer than {@code maxFailures} happened within {@code interval}. */
  record FailureRate(int maxFailures, Duration interval, Duration delay)
      implements RestartStrategy {}

  /**
   * How long the strategy may wait in all before an attempt runs that can commit what the failed
   * one left pending: the delay times the attempts of a bounded strategy, the first delay of one
   * that restarts without limit, nothing without restarts.
   */
  default Duration restartBudget() {
    if (this instanceof FixedDelay fixed) {
      return fixed.attempts() == Integer.MAX_VALUE
          ? fixed.delay()
          : fixed.delay().multipliedBy(fixed.attempts());
    }
    if (this instanceof ExponentialBackoff backoff) {
      return backoff.initialDelay();
    }
    if (this instanceof FailureRate rate) {
      return rate.delay().multipliedBy(rate.maxFailures());
    }
    return Duration.ZERO;
  }

  static RestartStrategy none() {
    return new None();
  }

  static RestartStrategy fixedDelay(int attempts, Duration delay) {
    return new FixedDelay(attempts, delay);
  }

  static RestartStrategy exponentialBackoff(Duration initialDelay, Duration maxDelay) {
    return new ExponentialBackoff(initialDelay, maxDelay);
  }

  static RestartStrategy failureRate(int maxFailures, Duration interval, Duration delay) {
    return new FailureRate(maxFailures, interval, delay);
  }
}
