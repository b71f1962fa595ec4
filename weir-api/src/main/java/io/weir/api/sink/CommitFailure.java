package io.weir.api.sink;

import io.weir.api.annotation.PublicEvolving;

/**
 * What a failed commit means, as a {@link TwoPhaseCommitSinkFunction} classifies it in {@code
 * classifyCommitFailure}.
 */
@PublicEvolving
public enum CommitFailure {
  /** Transient (a network hiccup, a broker moving leadership): the same commit may succeed soon. */
  RETRIABLE,
  /**
   * The external system gave up the transaction because it stayed open longer than its timeout: its
   * records can never be committed. Handed to {@code onTransactionTimedOut}.
   */
  TRANSACTION_TIMED_OUT,
  /** Anything else: the commit fails the task, and the restore retries it. */
  FATAL
}
