package io.weir.postgres.sink;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.List;

/**
 * The sink's statements prepared once on its writing connection, each with a batch of bound records
 * that is sent when it reaches the batch size and at every flush. Used on the task thread only; the
 * prepared statements live as long as the connection, across transactions.
 */
final class StatementBatches<T> implements AutoCloseable {
  private final List<JdbcStatement<T>> statements;
  private final List<PreparedStatement> prepared = new ArrayList<>();
  private final int batchSize;
  private int buffered;

  StatementBatches(Connection connection, List<JdbcStatement<T>> statements, int batchSize)
      throws SQLException {
    this.statements = statements;
    this.batchSize = batchSize;
    for (JdbcStatement<T> statement : statements) {
      prepared.add(connection.prepareStatement(statement.sql()));
    }
  }

  /** Binds the record to every statement; sends the batches once they are full. */
  void add(T record) throws SQLException {
    for (int index = 0; index < statements.size(); index++) {
      PreparedStatement statement = prepared.get(index);
      statements.get(index).binder().bind(statement, record);
      statement.addBatch();
    }
    buffered++;
    if (buffered >= batchSize) {
      flush();
    }
  }

  /** Sends every buffered record to the database, in the order the statements were given. */
  void flush() throws SQLException {
    if (buffered == 0) {
      return;
    }
    for (PreparedStatement statement : prepared) {
      statement.executeBatch();
    }
    buffered = 0;
  }

  /** Forgets the buffered records (their transaction is rolled back). */
  void discard() throws SQLException {
    for (PreparedStatement statement : prepared) {
      statement.clearBatch();
    }
    buffered = 0;
  }

  @Override
  public void close() throws SQLException {
    for (PreparedStatement statement : prepared) {
      statement.close();
    }
  }
}
