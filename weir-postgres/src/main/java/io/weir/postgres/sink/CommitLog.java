package io.weir.postgres.sink;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;

/**
 * The proof that a prepared transaction committed: every sink transaction also inserts its own row
 * (transaction prefix, checkpoint id) into the table {@code weir_sink_commits}, so the row becomes
 * visible exactly when the transaction commits. When {@code COMMIT PREPARED} finds no such prepared
 * transaction, the row tells "already committed" (quiet) from "rolled back" (records lost). Rows
 * far behind the newest checkpoint of a subtask are deleted, in the same transactions.
 */
final class CommitLog {
  static final String TABLE = "weir_sink_commits";

  /** Checkpoints of proof kept per subtask: restores from older checkpoints are not expected. */
  private static final long RETAINED_CHECKPOINTS = 10_000;

  private static final long PRUNE_EVERY = 100;

  /** {@code duplicate_table} and {@code unique_violation}: a concurrent subtask created it. */
  private static final String DUPLICATE_TABLE = "42P07";

  private static final String UNIQUE_VIOLATION = "23505";

  private CommitLog() {}

  /** Creates the table if missing; on an auto-commit connection. */
  static void ensureTable(Connection connection) throws SQLException {
    try (Statement statement = connection.createStatement()) {
      statement.execute(
          "CREATE TABLE IF NOT EXISTS "
              + TABLE
              + " (transaction_prefix text NOT NULL, checkpoint_id bigint NOT NULL,"
              + " prepared_at timestamptz NOT NULL DEFAULT now(),"
              + " PRIMARY KEY (transaction_prefix, checkpoint_id))");
    } catch (SQLException e) {
      if (!DUPLICATE_TABLE.equals(e.getSQLState()) && !UNIQUE_VIOLATION.equals(e.getSQLState())) {
        throw e;
      }
    }
  }

  /** Adds the transaction's row, inside the open transaction of {@code connection}. */
  static void record(Connection connection, String prefix, long checkpointId) throws SQLException {
    if (checkpointId % PRUNE_EVERY == 0 && checkpointId > RETAINED_CHECKPOINTS) {
      try (PreparedStatement prune =
          connection.prepareStatement(
              "DELETE FROM " + TABLE + " WHERE transaction_prefix = ? AND checkpoint_id < ?")) {
        prune.setString(1, prefix);
        prune.setLong(2, checkpointId - RETAINED_CHECKPOINTS);
        prune.executeUpdate();
      }
    }
    try (PreparedStatement insert =
        connection.prepareStatement(
            "INSERT INTO " + TABLE + " (transaction_prefix, checkpoint_id) VALUES (?, ?)")) {
      insert.setString(1, prefix);
      insert.setLong(2, checkpointId);
      insert.executeUpdate();
    }
  }

  /** Deletes every commit record of the subtask's transactions; on an auto-commit connection. */
  static void forget(Connection connection, String prefix) throws SQLException {
    try (PreparedStatement delete =
        connection.prepareStatement("DELETE FROM " + TABLE + " WHERE transaction_prefix = ?")) {
      delete.setString(1, prefix);
      delete.executeUpdate();
    }
  }

  /**
   * Deletes the subtask's commit records of checkpoints after {@code checkpointId}; on an
   * auto-commit connection. A restore from that checkpoint (an older one, or a savepoint restored
   * into a new checkpoint directory) numbers its checkpoints after it again.
   */
  static void forgetAfter(Connection connection, String prefix, long checkpointId)
      throws SQLException {
    try (PreparedStatement delete =
        connection.prepareStatement(
            "DELETE FROM " + TABLE + " WHERE transaction_prefix = ? AND checkpoint_id > ?")) {
      delete.setString(1, prefix);
      delete.setLong(2, checkpointId);
      delete.executeUpdate();
    }
  }

  /** Whether the transaction of {@code checkpointId} committed. */
  static boolean committed(Connection connection, String prefix, long checkpointId)
      throws SQLException {
    try (PreparedStatement query =
        connection.prepareStatement(
            "SELECT 1 FROM " + TABLE + " WHERE transaction_prefix = ? AND checkpoint_id = ?")) {
      query.setString(1, prefix);
      query.setLong(2, checkpointId);
      try (ResultSet result = query.executeQuery()) {
        return result.next();
      }
    }
  }
}
