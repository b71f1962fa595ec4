package io.weir.postgres.sink;

import java.io.Serializable;

/**
 * The handle of one sink transaction, written to checkpoints: its global id once prepared, which is
 * all a new process needs to commit it. The database transaction itself lives on the sink's writing
 * connection while open, and in the server (surviving a crash of the client) once prepared.
 */
final class PostgresTransaction implements Serializable {
  private static final long serialVersionUID = 1L;

  private final String transactionPrefix;
  private TransactionStatus status = TransactionStatus.OPEN;
  private String globalId;
  private long checkpointId = -1;
  private transient long records;

  PostgresTransaction(String transactionPrefix) {
    this.transactionPrefix = transactionPrefix;
  }

  void recordWritten() {
    records++;
  }

  boolean hasRecords() {
    return records > 0;
  }

  void prepared(String id, long checkpoint) {
    moveTo(TransactionStatus.PREPARED);
    this.globalId = id;
    this.checkpointId = checkpoint;
  }

  void empty() {
    moveTo(TransactionStatus.EMPTY);
  }

  TransactionStatus status() {
    return status;
  }

  /** The global id; only for a prepared transaction. */
  String globalId() {
    if (status != TransactionStatus.PREPARED) {
      throw new IllegalStateException("Transaction " + this + " is not prepared");
    }
    return globalId;
  }

  String transactionPrefix() {
    return transactionPrefix;
  }

  long checkpointId() {
    return checkpointId;
  }

  private void moveTo(TransactionStatus next) {
    if (!status.canMoveTo(next)) {
      throw new IllegalStateException("Transaction " + this + " cannot move to " + next);
    }
    status = next;
  }

  @Override
  public String toString() {
    return switch (status) {
      case PREPARED -> globalId;
      case EMPTY -> transactionPrefix + "<empty>";
      case OPEN -> transactionPrefix + "<open>";
    };
  }
}
