package io.weir.runtime.sink.twophase;

import io.weir.api.checkpoint.CommitObserver;
import io.weir.api.sink.TransactionCommitException;
import io.weir.api.sink.TransactionHolder;
import io.weir.api.sink.TransactionStatus;
import io.weir.api.sink.TwoPhaseCommitHooks;
import io.weir.api.sink.TwoPhaseCommitOptions;
import io.weir.api.sink.TwoPhaseCommitSinkFunction;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.SortedMap;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Commits pending transactions of a two-phase-commit sink: retries what the sink classifies as
 * retriable, hands a timed-out transaction to the sink's {@code onTransactionTimedOut}, and turns
 * every other failure into a {@link TransactionCommitException} naming the checkpoint and the
 * transaction. Runs on the task thread, on the sink's commit thread ({@link BackgroundCommitter}),
 * or on the thread of the job-level recovery step.
 */
final class TransactionCommitter<TXN> {
  /**
   * One way of committing: {@code commit} after a checkpoint, {@code recoverAndCommit} on restore.
   */
  @FunctionalInterface
  interface CommitAction<TXN> {
    void commit(TXN transaction) throws Exception;
  }

  // Named for the sink, where users look for its warnings.
  private static final Logger LOG = LoggerFactory.getLogger(TwoPhaseCommitSinkFunction.class);

  private final TwoPhaseCommitHooks<?, TXN, ?> sink;
  private final TwoPhaseCommitOptions options;

  TransactionCommitter(TwoPhaseCommitHooks<?, TXN, ?> sink) {
    this.sink = sink;
    this.options = sink.options();
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

  /**
   * Commits each entry of {@code due} in checkpoint order, telling {@code observer}, and removes it
   * once committed. When a commit fails the others are still tried; the failed ones stay in {@code
   * due} and the first failure is thrown, with the later ones suppressed in it.
   */
  void commitAll(
      SortedMap<Long, TransactionHolder<TXN>> due,
      CommitAction<TXN> action,
      CommitObserver observer)
      throws Exception {
    Exception firstFailure = null;
    for (Map.Entry<Long, TransactionHolder<TXN>> entry : List.copyOf(due.entrySet())) {
      long checkpointId = entry.getKey();
      try {
        maybeWarnAboutAge(checkpointId, entry.getValue());
        observer.beforeCommit(checkpointId);
        entry.getValue().moveTo(commit(checkpointId, entry.getValue(), action));
        observer.afterCommit(checkpointId);
        due.remove(checkpointId);
      } catch (Exception failure) {
        if (firstFailure == null) {
          firstFailure = failure;
        } else {
          firstFailure.addSuppressed(failure);
        }
      }
    }
    if (firstFailure != null) {
      throw firstFailure;
    }
  }

  /** Logs a warning when the transaction is close to the external system's timeout. */
  void maybeWarnAboutAge(long checkpointId, TransactionHolder<TXN> holder) {
    ageWarning(checkpointId, holder, options, options.clock().millis()).ifPresent(LOG::warn);
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
