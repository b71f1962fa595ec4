package io.weir.api.sink;

import io.weir.api.annotation.PublicEvolving;
import java.io.Serializable;
import java.time.Clock;
import java.time.Duration;
import java.util.Objects;
import java.util.Optional;

/**
 * How a {@link TwoPhaseCommitSinkFunction} treats time and failed commits. Immutable; build one
 * with {@link #builder()}. The defaults: the system clock, no known transaction timeout, three
 * commit attempts 100 ms apart, and a timed-out transaction fails the task.
 */
@PublicEvolving
public final class TwoPhaseCommitOptions implements Serializable {
  private static final long serialVersionUID = 1L;

  /**
   * The share of the transaction timeout a transaction may reach before the sink fails its task,
   * ahead of the external system's abort.
   */
  public static final double AGE_LIMIT_RATIO = 0.9;

  private final Clock clock;
  private final Duration transactionTimeout;
  private final double timeoutWarningRatio;
  private final int maxCommitAttempts;
  private final Duration commitRetryBackoff;
  private final boolean ignoreFailuresAfterTransactionTimeout;
  private final boolean commitInBackground;

  private TwoPhaseCommitOptions(Builder builder) {
    this.clock = builder.clock;
    this.transactionTimeout = builder.transactionTimeout;
    this.timeoutWarningRatio = builder.timeoutWarningRatio;
    this.maxCommitAttempts = builder.maxCommitAttempts;
    this.commitRetryBackoff = builder.commitRetryBackoff;
    this.ignoreFailuresAfterTransactionTimeout = builder.ignoreFailuresAfterTransactionTimeout;
    this.commitInBackground = builder.commitInBackground;
  }

  public static TwoPhaseCommitOptions defaults() {
    return builder().build();
  }

  public static Builder builder() {
    return new Builder();
  }

  /** Where transaction begin times and ages come from. */
  public Clock clock() {
    return clock;
  }

  /** The external system's transaction timeout, when known. */
  public Optional<Duration> transactionTimeout() {
    return Optional.ofNullable(transactionTimeout);
  }

  /** A pending transaction older than this fraction of the timeout is logged as a warning. */
  public double timeoutWarningRatio() {
    return timeoutWarningRatio;
  }

  public int maxCommitAttempts() {
    return maxCommitAttempts;
  }

  public Duration commitRetryBackoff() {
    return commitRetryBackoff;
  }

  /** Whether a transaction that timed out is logged and dropped instead of failing the task. */
  public boolean ignoreFailuresAfterTransactionTimeout() {
    return ignoreFailuresAfterTransactionTimeout;
  }

  /**
   * Whether the transactions of completed checkpoints are committed on a thread of the sink's own,
   * while the task goes on processing records, rather than on the task thread.
   */
  public boolean commitInBackground() {
    return commitInBackground;
  }

  /** Builds {@link TwoPhaseCommitOptions}; each setter checks its argument. */
  public static final class Builder {
    private Clock clock = Clock.systemUTC();
    private Duration transactionTimeout;
    private double timeoutWarningRatio = 0.8;
    private int maxCommitAttempts = 3;
    private Duration commitRetryBackoff = Duration.ofMillis(100);
    private boolean ignoreFailuresAfterTransactionTimeout;
    private boolean commitInBackground;

    private Builder() {}

    /** The clock must be {@link Serializable}, as the JDK's clocks are, to ship with the sink. */
    public Builder clock(Clock clock) {
      this.clock = Objects.requireNonNull(clock, "clock");
      return this;
    }

    /**
     * The external system's transaction timeout: transactions older than this are presumed timed
     * out when their commit fails, and pending ones older than {@code warningRatio} of it are
     * logged as warnings.
     */
    public Builder transactionTimeout(Duration timeout, double warningRatio) {
      if (timeout.isNegative() || timeout.isZero()) {
        throw new IllegalArgumentException("Transaction timeout must be positive: " + timeout);
      }
      if (!(warningRatio > 0 && warningRatio <= 1)) {
        throw new IllegalArgumentException(
            "Transaction timeout warning ratio must be in (0, 1]: " + warningRatio);
      }
      this.transactionTimeout = timeout;
      this.timeoutWarningRatio = warningRatio;
      return this;
    }

    /** How often a commit classified as retriable is tried in all, and the pause between tries. */
    public Builder commitRetries(int maxAttempts, Duration backoff) {
      if (maxAttempts < 1) {
        throw new IllegalArgumentException("Commit attempts must be at least 1: " + maxAttempts);
      }
      if (backoff.isNegative()) {
        throw new IllegalArgumentException("Commit retry backoff must not be negative: " + backoff);
      }
      this.maxCommitAttempts = maxAttempts;
      this.commitRetryBackoff = backoff;
      return this;
    }

    /**
     * Log and drop a transaction whose commit failed because it timed out, instead of failing the
     * task. Its records are lost; choose this only when availability matters more than them.
     */
    public Builder ignoreFailuresAfterTransactionTimeout() {
      this.ignoreFailuresAfterTransactionTimeout = true;
      return this;
    }

    /**
     * Commit the transactions of completed checkpoints on a thread of the sink's own, one at a time
     * in checkpoint order, so that records go on into the next transaction while one commits. A
     * transaction stays pending (and in every checkpoint) until its commit returned; a failed
     * commit fails the task at its next barrier, notification or close. Choose it when a commit is
     * a round trip to a remote system; the sink's {@code commit} (and the {@code
     * classifyCommitFailure} and {@code onTransactionTimedOut} it leads to) then runs on that
     * thread, concurrently with {@code invoke} and {@code beginTransaction} on the task thread.
     */
    public Builder commitInBackground() {
      this.commitInBackground = true;
      return this;
    }

    public TwoPhaseCommitOptions build() {
      return new TwoPhaseCommitOptions(this);
    }
  }
}
