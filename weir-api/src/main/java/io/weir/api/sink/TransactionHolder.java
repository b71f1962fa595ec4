package io.weir.api.sink;

import io.weir.api.annotation.PublicEvolving;
import java.util.Objects;

/**
 * A transaction handle with the time it began, so that its age can be compared with the timeout of
 * the external system (a Kafka broker aborts transactions older than its {@code
 * transaction.timeout.ms}), and where it stands in its lifecycle.
 *
 * @param handle the sink's transaction, as returned by {@code beginTransaction()}
 * @param beginTimeMillis when it began, in epoch milliseconds of the sink's clock
 * @param status where the transaction stands; not written to checkpoints, where the open
 *     transaction and the pending ones are told apart by their place
 */
@PublicEvolving
public record TransactionHolder<TXN>(TXN handle, long beginTimeMillis, TransactionStatus status) {
  public TransactionHolder {
    Objects.requireNonNull(handle, "handle");
    Objects.requireNonNull(status, "status");
  }

  /** A transaction just begun: {@link TransactionStatus#OPEN}. */
  public TransactionHolder(TXN handle, long beginTimeMillis) {
    this(handle, beginTimeMillis, TransactionStatus.OPEN);
  }

  /** How long ago the transaction began, never negative. */
  public long ageMillis(long nowMillis) {
    return Math.max(0, nowMillis - beginTimeMillis);
  }

  /**
   * The same transaction in status {@code next}.
   *
   * @throws IllegalStateException naming the transaction and both statuses when the lifecycle does
   *     not allow the move (e.g. committing a transaction that was never pre-committed)
   */
  public TransactionHolder<TXN> moveTo(TransactionStatus next) {
    if (!status.canMoveTo(next)) {
      throw new IllegalStateException(
          "Transaction " + handle + " cannot move from " + status + " to " + next);
    }
    return new TransactionHolder<>(handle, beginTimeMillis, next);
  }
}
