package io.weir.postgres.sink;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;

/**
 * Lists, commits and rolls back prepared transactions on a connection in auto-commit mode ({@code
 * COMMIT PREPARED} cannot run inside a transaction block). Any session may finish any prepared
 * transaction of its database, which is what lets a new process commit the transactions of a killed
 * one. Not thread-safe: one connection, one thread.
 */
public final class PreparedTransactions {
  /** {@code undefined_object}: there is no prepared transaction with that id. */
  private static final String UNKNOWN_TRANSACTION = "42704";

  private final Connection connection;

  public PreparedTransactions(Connection connection) {
    this.connection = connection;
  }

  /** The prepared transactions of the connection's database, oldest first. */
  public List<PreparedTransaction> list() throws SQLException {
    return query(
        "SELECT gid, prepared, owner, database FROM pg_prepared_xacts"
            + " WHERE database = current_database() ORDER BY prepared, gid",
        null);
  }

  /** Prepared transactions whose id is {@code LIKE} the pattern, oldest first. */
  List<PreparedTransaction> listLike(String likePattern) throws SQLException {
    return query(
        "SELECT gid, prepared, owner, database FROM pg_prepared_xacts"
            + " WHERE database = current_database() AND gid LIKE ? ORDER BY prepared, gid",
        likePattern);
  }

  /**
   * {@code COMMIT PREPARED}; returns false when no transaction with that id is prepared (it was
   * committed or rolled back before: the caller tells which).
   */
  public boolean commit(String globalId) throws SQLException {
    return finish("COMMIT PREPARED ", globalId);
  }

  /** {@code ROLLBACK PREPARED}; returns false when no transaction with that id is prepared. */
  public boolean rollback(String globalId) throws SQLException {
    return finish("ROLLBACK PREPARED ", globalId);
  }

  /** The server's {@code max_prepared_transactions}; 0 means prepared transactions are off. */
  public int maxPreparedTransactions() throws SQLException {
    try (Statement statement = connection.createStatement();
        ResultSet result = statement.executeQuery("SHOW max_prepared_transactions")) {
      result.next();
      return Integer.parseInt(result.getString(1));
    }
  }

  private boolean finish(String command, String globalId) throws SQLException {
    try (Statement statement = connection.createStatement()) {
      statement.execute(command + quoted(globalId));
      return true;
    } catch (SQLException e) {
      if (UNKNOWN_TRANSACTION.equals(e.getSQLState())) {
        return false;
      }
      throw e;
    }
  }

  private List<PreparedTransaction> query(String sql, String parameter) throws SQLException {
    try (PreparedStatement statement = connection.prepareStatement(sql)) {
      if (parameter != null) {
        statement.setString(1, parameter);
      }
      List<PreparedTransaction> transactions = new ArrayList<>();
      try (ResultSet result = statement.executeQuery()) {
        while (result.next()) {
          transactions.add(
              new PreparedTransaction(
                  result.getString(1),
                  result.getTimestamp(2).toInstant(),
                  result.getString(3),
                  result.getString(4)));
        }
      }
      return transactions;
    }
  }

  /** A string literal: the transaction commands take no bind parameters. */
  static String quoted(String globalId) {
    return "'" + globalId.replace("'", "''") + "'";
  }
}
