package io.weir.api.sink;

import java.util.Objects;

/**
 * A transaction handle with the time it began, so that its age can be compared with the timeout of
 * the external system (a Kafka broker aborts transactions older than its {@code
 * transaction.timeout.ms}).
 *
 * @param handle the sink's transaction, as returned by {@code beginTransaction()}
 * @param beginTimeMillis when it began, in epoch milliseconds of the sink's clock
 */
public record TransactionHolder<TXN>(TXN handle, long beginTimeMillis) {
  public TransactionHolder {
    Objects.requireNonNull(handle, "handle");
  }

  /** How long ago the transaction began, never negative. */
  public long ageMillis(long nowMillis) {
    return Math.max(0, nowMillis - beginTimeMillis);
  }
}
