package io.weir.kafka.transaction;

/** What became of a pending transaction when recovery tried to commit it. */
public enum RecoveryOutcome {
  /** Committed now, or committed before the crash (a replayed commit is silent on protocol v2). */
  COMMITTED,
  /**
   * The broker had aborted it, normally because it outlived {@code transaction.timeout.ms}: its
   * records are lost for read_committed readers and must be reported as data loss.
   */
  ABORTED_BY_BROKER,
  /**
   * A newer epoch owns the transactional id (another producer initialised it, or, on protocol v1,
   * the broker's timeout abort bumped the epoch): the outcome of this transaction is unknown.
   */
  FENCED,
  /** The broker does not know the producer id (expired or never existed): outcome unknown. */
  UNKNOWN_PRODUCER_ID;

  /** True when records of the transaction are known to be lost. */
  public boolean isDataLoss() {
    return this == ABORTED_BY_BROKER;
  }
}
