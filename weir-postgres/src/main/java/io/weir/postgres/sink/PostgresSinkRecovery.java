package io.weir.postgres.sink;

import java.sql.Connection;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.List;

/**
 * The two recovery steps of the exactly-once PostgreSQL sink, on an auto-commit connection, each
 * idempotent and usable on its own (by the sink on restore, or by a job-level recovery step before
 * any subtask starts): commit a prepared transaction and prove its outcome, and roll back the
 * prepared transactions of a subtask that no checkpoint owns.
 */
final class PostgresSinkRecovery {
  private final Connection connection;
  private final PreparedTransactions prepared;

  PostgresSinkRecovery(Connection connection) {
    this.connection = connection;
    this.prepared = new PreparedTransactions(connection);
  }

  /**
   * Commits the prepared transaction. When the server has no such prepared transaction, the commit
   * log decides: committed before (by the process that was killed after committing, or an earlier
   * restore) is normal and quiet; rolled back means its records are lost, thrown as {@link
   * PreparedTransactionLostException}.
   *
   * @return what happened, for logging
   */
  CommitOutcome commit(PostgresTransaction transaction)
      throws SQLException, PreparedTransactionLostException {
    if (transaction.status() != TransactionStatus.PREPARED) {
      return CommitOutcome.NOTHING_TO_COMMIT;
    }
    if (prepared.commit(transaction.globalId())) {
      return CommitOutcome.COMMITTED;
    }
    if (CommitLog.committed(
        connection, transaction.transactionPrefix(), transaction.checkpointId())) {
      return CommitOutcome.ALREADY_COMMITTED;
    }
    throw new PreparedTransactionLostException(
        "prepared transaction '"
            + transaction.globalId()
            + "' of checkpoint "
            + transaction.checkpointId()
            + " was rolled back before it was committed (it is neither in pg_prepared_xacts nor in "
            + CommitLog.TABLE
            + "); its records are lost");
  }

  /**
   * Rolls back every prepared transaction with an id of {@code ids} (exactly: prefix and checkpoint
   * number): run once the transactions of the restored checkpoint are committed, what remains
   * belongs to checkpoints that never completed, or to an earlier run.
   *
   * @return the ids rolled back
   */
  List<String> rollBackLingering(TransactionIds ids) throws SQLException {
    List<String> rolledBack = new ArrayList<>();
    for (PreparedTransaction transaction : prepared.listLike(ids.likePattern())) {
      if (ids.owns(transaction.globalId()) && prepared.rollback(transaction.globalId())) {
        rolledBack.add(transaction.globalId());
      }
    }
    return rolledBack;
  }

  /** What committing a prepared transaction found. */
  enum CommitOutcome {
    COMMITTED,
    ALREADY_COMMITTED,
    NOTHING_TO_COMMIT
  }
}
