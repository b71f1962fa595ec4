package io.weir.runtime.sink.twophase;

import io.weir.api.sink.TransactionHolder;
import io.weir.api.sink.TwoPhaseCommitOptions;
import java.util.Map;
import java.util.SortedMap;

/**
 * Fails the task before the external system aborts a transaction for its age. A checkpoint that
 * expires leaves its transaction pending, to be committed with the next completed checkpoint; when
 * checkpoints keep failing, that transaction grows older than the system's transaction timeout, the
 * system aborts it, and the job learns it only at the next commit, as data loss. Failing while the
 * transaction is still alive restores the last completed checkpoint instead: the transaction is
 * aborted as a lingering one and its records are read again, so nothing is lost.
 *
 * <p>Checked on the task thread at each barrier and each aborted checkpoint; does nothing when the
 * sink does not know its transaction timeout.
 */
final class TransactionAgeLimit {
  private static final double FAIL_RATIO = TwoPhaseCommitOptions.AGE_LIMIT_RATIO;

  private TransactionAgeLimit() {}

  /**
   * @throws IllegalStateException naming the oldest transaction past the limit, its checkpoint, its
   *     age and the timeout
   */
  static <TXN> void check(
      SortedMap<Long, TransactionHolder<TXN>> pending,
      TransactionHolder<TXN> open,
      TwoPhaseCommitOptions options) {
    if (options.transactionTimeout().isEmpty()) {
      return;
    }
    long timeoutMillis = options.transactionTimeout().get().toMillis();
    long limitMillis = (long) (timeoutMillis * FAIL_RATIO);
    long nowMillis = options.clock().millis();
    for (Map.Entry<Long, TransactionHolder<TXN>> entry : pending.entrySet()) {
      failIfPastLimit(
          "of checkpoint " + entry.getKey(),
          entry.getValue(),
          nowMillis,
          limitMillis,
          timeoutMillis);
    }
    if (open != null) {
      failIfPastLimit("still open", open, nowMillis, limitMillis, timeoutMillis);
    }
  }

  private static void failIfPastLimit(
      String which,
      TransactionHolder<?> transaction,
      long nowMillis,
      long limitMillis,
      long timeoutMillis) {
    long ageMillis = transaction.ageMillis(nowMillis);
    if (ageMillis < limitMillis) {
      return;
    }
    throw new IllegalStateException(
        "Transaction "
            + transaction.handle()
            + " "
            + which
            + " is "
            + ageMillis / 1000
            + " s old, past "
            + Math.round(FAIL_RATIO * 100)
            + " % of the transaction timeout ("
            + timeoutMillis / 1000
            + " s), as checkpoints did not complete in time: failing before the external system"
            + " aborts it, so that the job restores its last completed checkpoint and reads the"
            + " records again; lower the checkpoint timeout or raise the transaction timeout");
  }
}
