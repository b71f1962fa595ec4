package io.weir.kafka.transaction;

import java.util.Objects;

/**
 * What a checkpoint stores about a producer's open transaction so that another producer instance
 * (in another process, after a crash) can commit it: the transactional id and the producer id and
 * epoch the broker knows the transaction by.
 */
public record PendingTransaction(String transactionalId, long producerId, short epoch) {
  public PendingTransaction {
    Objects.requireNonNull(transactionalId, "transactionalId");
    if (producerId < 0 || epoch < 0) {
      throw new IllegalArgumentException(
          "transactional id "
              + transactionalId
              + " has no producer id and epoch yet (producer id "
              + producerId
              + ", epoch "
              + epoch
              + "); call initTransactions() first");
    }
  }

  @Override
  public String toString() {
    return transactionalId + " (producer id " + producerId + ", epoch " + epoch + ")";
  }
}
