package io.weir.postgres.sink;

import io.weir.api.checkpoint.CheckpointedFunction;
import io.weir.api.checkpoint.FunctionInitializationContext;
import io.weir.api.checkpoint.FunctionSnapshotContext;
import io.weir.api.functions.AbstractRichFunction;
import io.weir.api.sink.SinkFunction;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.SQLException;

/**
 * The at-least-once JDBC sink: batches records in a database transaction and commits it at every
 * checkpoint barrier, so a checkpoint completes only once its records are committed. After a
 * failure the records since the restored checkpoint are written again: with upserts the table ends
 * as if each was written once; with plain inserts they appear twice. Commits on close too, so a
 * finished bounded job loses nothing.
 */
final class AtLeastOnceJdbcSink<T> extends AbstractRichFunction
    implements SinkFunction<T>, CheckpointedFunction {
  private static final long serialVersionUID = 1L;

  private final JdbcSinkConfig<T> config;
  private transient Connection connection;
  private transient StatementBatches<T> batches;

  AtLeastOnceJdbcSink(JdbcSinkConfig<T> config) {
    this.config = config;
  }

  @Override
  public void initializeState(FunctionInitializationContext context) throws SQLException {
    connection = DriverManager.getConnection(config.jdbcUrl());
    connection.setAutoCommit(false);
    batches = new StatementBatches<>(connection, config.statements(), config.batchSize());
  }

  @Override
  public void invoke(T value, Context context) throws SQLException {
    batches.add(value);
  }

  @Override
  public void snapshotState(FunctionSnapshotContext context) throws SQLException {
    flushAndCommit();
  }

  private void flushAndCommit() throws SQLException {
    batches.flush();
    connection.commit();
  }

  @Override
  public void close() throws SQLException {
    if (connection == null) {
      return;
    }
    try {
      flushAndCommit();
      batches.close();
    } finally {
      connection.close();
      connection = null;
    }
  }
}
