package io.weir.runtime.execution;

import io.weir.api.datastream.RestartStrategy;
import io.weir.api.datastream.SuppressRestartsException;
import java.util.ArrayDeque;
import java.util.Deque;
import java.util.OptionalLong;

/**
 * Applies a job's {@link RestartStrategy}: whether to restart after a failure, and when. Local runs
 * and the cluster's job manager use the same policy, so a job restarts the same way in both.
 */
public final class RestartPolicy {
  private final RestartStrategy strategy;
  private final Deque<Long> failureTimes = new ArrayDeque<>();
  private int restarts;
  private long lastDelay;
  private boolean suppressed;

  public RestartPolicy(RestartStrategy strategy) {
    this.strategy = strategy;
  }

  /**
   * The delay before the next restart, or empty when the job must fail: the strategy gave up, or
   * the failure is a {@link SuppressRestartsException}.
   */
  public OptionalLong onFailure(long nowMillis, Throwable failure) {
    if (SuppressRestartsException.isIn(failure)) {
      suppressed = true;
      return OptionalLong.empty();
    }
    restarts++;
    if (strategy instanceof RestartStrategy.FixedDelay fixed) {
      return restarts <= fixed.attempts()
          ? OptionalLong.of(fixed.delay().toMillis())
          : OptionalLong.empty();
    }
    if (strategy instanceof RestartStrategy.ExponentialBackoff backoff) {
      lastDelay =
          lastDelay == 0
              ? backoff.initialDelay().toMillis()
              : Math.min(lastDelay * 2, backoff.maxDelay().toMillis());
      return OptionalLong.of(lastDelay);
    }
    if (strategy instanceof RestartStrategy.FailureRate rate) {
      failureTimes.addLast(nowMillis);
      while (!failureTimes.isEmpty()
          && nowMillis - failureTimes.peekFirst() > rate.interval().toMillis()) {
        failureTimes.removeFirst();
      }
      return failureTimes.size() <= rate.maxFailures()
          ? OptionalLong.of(rate.delay().toMillis())
          : OptionalLong.empty();
    }
    return OptionalLong.empty();
  }

  public int restarts() {
    return restarts;
  }

  /** Why the policy gave up, for the job's failure message. */
  public String describe() {
    if (suppressed) {
      return "not restarted: restarting cannot cure this failure";
    }
    if (strategy instanceof RestartStrategy.FixedDelay fixed) {
      return "fixed-delay restart strategy gave up after " + fixed.attempts() + " attempts";
    }
    if (strategy instanceof RestartStrategy.FailureRate rate) {
      return "failure-rate restart strategy gave up: more than "
          + rate.maxFailures()
          + " failures within "
          + rate.interval();
    }
    if (strategy instanceof RestartStrategy.ExponentialBackoff) {
      return "exponential-backoff restart strategy";
    }
    return "restart strategy none";
  }
}
