package io.weir.api.sink;

import java.lang.System.Logger.Level;
import java.time.Duration;
import java.util.Optional;

/**
 * Commits one pending transaction of a {@link TwoPhaseCommitSinkFunction}: retries what the sink
 * classifies as retriable, hands a timed-out transaction to the sink's {@code
 * onTransactionTimedOut}, and turns every other failure into a {@link TransactionCommitException}
 * naming the checkpoint and the transaction. Runs on the task thread, or on the sink's commit
 * thread ({@link BackgroundCommitter}).
 */
final class TransactionCommitter<TXN> {
  /**
   * One way of committing: {@code commit} after a checkpoint, {@code recoverAndCommit} on restore.
   */
  @FunctionalInterface
  interface CommitAction<TXN> {
    void commit(TXN transaction) throws Exception;
  }

  private static final System.Logger LOG =
      System.getLogger(TwoPhaseCommitSinkFunction.class.getName());

  private final TwoPhaseCommitSinkFunction<?, TXN, ?> sink;
  private final TwoPhaseCommitOptions options;

  TransactionCommitter(TwoPhaseCommitSinkFunction<?, TXN, ?> sink, TwoPhaseCommitOptions options) {
    this.sink = sink;
    this.options = options;
  }

  /**
   * Returns {@link TransactionStatus#COMMITTED} when the transaction is committed, or {@link
   * TransactionStatus#ABORTED} when it timed out and the sink's {@code onTransactionTimedOut}
   * accepted the loss; either way it is no longer pending.
   */
  TransactionStatus commit(
      long checkpointId, TransactionHolder<TXN> holder, CommitAction<TXN> action) throws Exception {
    TXN transaction = holder.handle();
    for (int attempt = 1; ; attempt++) {
      try {
        action.commit(transaction);
        return TransactionStatus.COMMITTED;
      } catch (Exception failure) {
        long ageMillis = holder.ageMillis(options.clock().millis());
        switch (sink.classifyCommitFailure(transaction, ageMillis, failure)) {
          case RETRIABLE -> {
            if (attempt >= options.maxCommitAttempts()) {
              throw new TransactionCommitException(
                  checkpointId,
                  transaction,
                  "still failing after " + attempt + " attempts: " + failure,
                  failure);
            }
            pause(options.commitRetryBackoff());
          }
          case TRANSACTION_TIMED_OUT -> {
            sink.onTransactionTimedOut(transaction, checkpointId, failure);
            // The external system aborted it; the sink chose to drop it.
            return TransactionStatus.ABORTED;
          }
          case FATAL ->
              throw new TransactionCommitException(
                  checkpointId, transaction, String.valueOf(failure), failure);
        }
      }
    }
  }

  /** Logs a warning when the transaction is close to the external system's timeout. */
  void maybeWarnAboutAge(long checkpointId, TransactionHolder<TXN> holder) {
    ageWarning(checkpointId, holder, options, options.clock().millis())
        .ifPresent(warning -> LOG.log(Level.WARNING, warning));
  }

  static Optional<String> ageWarning(
      long checkpointId,
      TransactionHolder<?> holder,
      TwoPhaseCommitOptions options,
      long nowMillis) {
    if (options.transactionTimeout().isEmpty()) {
      return Optional.empty();
    }
    long timeoutMillis = options.transactionTimeout().get().toMillis();
    long ageMillis = holder.ageMillis(nowMillis);
    if (ageMillis < timeoutMillis * options.timeoutWarningRatio()) {
      return Optional.empty();
    }
    return Optional.of(
        "Transaction "
            + holder.handle()
            + " of checkpoint "
            + checkpointId
            + " is "
            + ageMillis
            + " ms old, close to the transaction timeout of "
            + timeoutMillis
            + " ms; if it times out before it is committed, its records are lost");
  }

  private static void pause(Duration backoff) throws InterruptedException {
    if (!backoff.isZero()) {
      Thread.sleep(backoff.toMillis());
    }
  }
}
