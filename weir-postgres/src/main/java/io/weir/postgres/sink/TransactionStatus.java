package io.weir.postgres.sink;

/**
 * Where a sink transaction is: {@code OPEN -> PREPARED} (records, prepared at the barrier) or
 * {@code OPEN -> EMPTY} (no records: nothing to prepare or commit). Prepared and empty are final
 * for the sink; what the database did with a prepared transaction is checked at commit.
 */
enum TransactionStatus {
  OPEN,
  PREPARED,
  EMPTY;

  boolean canMoveTo(TransactionStatus next) {
    return this == OPEN && (next == PREPARED || next == EMPTY);
  }
}
