package io.weir.runtime.jobmaster;

import io.weir.api.datastream.JobConfig;
import io.weir.api.datastream.RestartStrategy;
import io.weir.api.datastream.SuppressRestartsException;
import io.weir.api.source.RecordFailureException;
import java.util.ArrayDeque;
import java.util.Deque;
import java.util.OptionalLong;

/**
 * Applies a job's {@link RestartStrategy}: whether to restart after a failure, and when. Local runs
 * and the cluster's job manager use the same policy, so a job restarts the same way in both.
 */
public final class RestartPolicy {
  private final RestartStrategy strategy;
  private final int failuresPerRecord;
  private final Deque<Long> failureTimes = new ArrayDeque<>();
  private String lastFailedRecord;
  private int lastFailedRecordCount;
  private int restarts;
  private long lastDelay;
  private boolean suppressed;
  private String poisonRecord;

  public RestartPolicy(RestartStrategy strategy) {
    this(strategy, JobConfig.DEFAULT_FAILURES_PER_RECORD);
  }

  /**
   * @param failuresPerRecord how many times one record (same source partition and offset) may fail
   *     the job in a row before the job fails for good
   */
  public RestartPolicy(RestartStrategy strategy, int failuresPerRecord) {
    this.strategy = strategy;
    this.failuresPerRecord = failuresPerRecord;
  }

  /**
   * The delay before the next restart, or empty when the job must fail: the strategy gave up, the
   * failure is a {@link SuppressRestartsException}, or the same record failed the job {@code
   * failuresPerRecord} times (see {@link RecordFailureException}).
   */
  public OptionalLong onFailure(long nowMillis, Throwable failure) {
    if (SuppressRestartsException.isIn(failure)) {
      suppressed = true;
      return OptionalLong.empty();
    }
    if (countRecordFailure(RecordFailureException.positionIn(failure).orElse(null))
        >= failuresPerRecord) {
      poisonRecord = lastFailedRecord;
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

  /**
   * Counts failures of one record in a row: any other failure in between (a broker that was down, a
   * lost task manager) starts the count again, so only a record that fails every attempt is poison.
   */
  private int countRecordFailure(String record) {
    if (record == null) {
      lastFailedRecord = null;
      lastFailedRecordCount = 0;
    } else if (record.equals(lastFailedRecord)) {
      lastFailedRecordCount++;
    } else {
      lastFailedRecord = record;
      lastFailedRecordCount = 1;
    }
    return lastFailedRecordCount;
  }

  public int restarts() {
    return restarts;
  }

  /** Why the policy gave up, for the job's failure message. */
  public String describe() {
    if (poisonRecord != null) {
      return "not restarted: "
          + poisonRecord
          + " failed the job "
          + failuresPerRecord
          + " times in a row; fix the function that rejects it, then resume: the job restarts"
          + " from its latest checkpoint and nothing past it was committed";
    }
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
