package io.weir.postgres.sink;

import io.weir.api.datastream.StaleLeaseEpochException;
import io.weir.api.functions.LeaseEpoch;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.Optional;

/**
 * The run's lease on the job's checkpoint directory as a fencing token in the database: the table
 * {@code weir_sink_leases}, beside the commit log, holds for each sink (its transaction id prefix
 * {@code weir.<job>.<sink>.}) the lease of the run that recovered it last. The job's recovery step
 * records its own lease there ({@link #recover}), refusing when a newer acquisition of the same
 * directory already did; every commit of a prepared transaction and every rollback of a lingering
 * one runs while a database transaction of this fence holds the row locked and has checked that no
 * other run recovered the sink since ({@link #guarded}). The row lock serialises the two: a newer
 * run's recovery waits for a commit under way, and every commit after it is refused.
 *
 * <p>A run without a lease (checkpoints in memory, a cluster's task manager) fences nothing and
 * touches no row. One connection of its own, opened on first use; one thread.
 */
final class SinkLeaseFence {
  static final String TABLE = "weir_sink_leases";

  /** {@code duplicate_table} and {@code unique_violation}: a concurrent subtask created it. */
  private static final String DUPLICATE_TABLE = "42P07";

  private static final String UNIQUE_VIOLATION = "23505";

  private final String jdbcUrl;
  private final String jobName;
  private final String sinkName;
  private final String sinkId;
  private final LeaseEpoch own;
  private Connection connection;

  /** What a fenced step does while the fence holds the sink's row. */
  @FunctionalInterface
  interface FencedAction<T> {
    T run() throws Exception;
  }

  /**
   * @param sinkName the sink as the user knows it, for the error line
   * @param sinkId the sink's key: the prefix of all its transaction ids
   */
  SinkLeaseFence(String jdbcUrl, String jobName, String sinkName, String sinkId, LeaseEpoch own) {
    this.jdbcUrl = jdbcUrl;
    this.jobName = jobName;
    this.sinkName = sinkName;
    this.sinkId = sinkId;
    this.own = own;
  }

  /** A fence of a sink driven without a run (a harness): fences nothing. */
  static SinkLeaseFence none() {
    return new SinkLeaseFence("", "", "", "", LeaseEpoch.NONE);
  }

  /**
   * The recovery step's side: records this run's lease as the sink's newest, unless a newer
   * acquisition of the same checkpoint directory recorded its own already.
   *
   * @throws StaleLeaseEpochException naming the job, the sink and both leases
   */
  void recover() throws Exception {
    if (!own.isHeld()) {
      return;
    }
    inTransaction(
        () -> {
          LeaseEpoch stored = lockedRow("FOR UPDATE");
          if (own.isOlderThan(stored)) {
            throw new StaleLeaseEpochException(jobName, sinkName, own, stored);
          }
          if (!stored.equals(own)) {
            try (PreparedStatement update =
                connection.prepareStatement(
                    "UPDATE "
                        + TABLE
                        + " SET checkpoint_directory = ?, lease_epoch = ? WHERE sink_id = ?")) {
              update.setString(1, own.checkpointDirectory());
              update.setLong(2, own.epoch());
              update.setString(3, sinkId);
              update.executeUpdate();
            }
          }
          return null;
        });
  }

  /**
   * Runs {@code action} (a commit or rollback of a prepared transaction, on another connection)
   * while this fence holds the sink's row, once it checked that no other run recovered the sink
   * since this one did.
   *
   * @throws StaleLeaseEpochException naming the job, the sink and both leases; {@code action} did
   *     not run
   */
  <T> T guarded(FencedAction<T> action) throws Exception {
    if (!own.isHeld()) {
      return action.run();
    }
    return inTransaction(
        () -> {
          // Shared: the subtasks of one run commit side by side; a recovery's update waits.
          LeaseEpoch stored = lockedRow("FOR SHARE");
          if (own.isFencedBy(stored)) {
            throw new StaleLeaseEpochException(jobName, sinkName, own, stored);
          }
          return action.run();
        });
  }

  /** Closes the fence's connection; the next use opens another. */
  void close() {
    if (connection == null) {
      return;
    }
    try {
      connection.close();
    } catch (SQLException e) {
      // Nothing is held open: each fenced step ends its transaction.
    }
    connection = null;
  }

  private <T> T inTransaction(FencedAction<T> body) throws Exception {
    Connection open = connection();
    try {
      T result = body.run();
      open.commit();
      return result;
    } catch (Exception e) {
      rollbackQuietly(open);
      throw e;
    }
  }

  /** The sink's row, locked; inserted with this run's lease when the sink has none yet. */
  private LeaseEpoch lockedRow(String lock) throws SQLException {
    Optional<LeaseEpoch> stored = select(lock);
    if (stored.isPresent()) {
      return stored.get();
    }
    try (PreparedStatement insert =
        connection.prepareStatement(
            "INSERT INTO "
                + TABLE
                + " (sink_id, checkpoint_directory, lease_epoch) VALUES (?, ?, ?)"
                + " ON CONFLICT (sink_id) DO NOTHING")) {
      insert.setString(1, sinkId);
      insert.setString(2, own.checkpointDirectory());
      insert.setLong(3, own.epoch());
      insert.executeUpdate();
    }
    return select(lock).orElseThrow();
  }

  private Optional<LeaseEpoch> select(String lock) throws SQLException {
    try (PreparedStatement query =
        connection.prepareStatement(
            "SELECT checkpoint_directory, lease_epoch FROM "
                + TABLE
                + " WHERE sink_id = ? "
                + lock)) {
      query.setString(1, sinkId);
      try (ResultSet result = query.executeQuery()) {
        return result.next()
            ? Optional.of(new LeaseEpoch(result.getString(1), result.getLong(2)))
            : Optional.empty();
      }
    }
  }

  private Connection connection() throws SQLException {
    if (connection == null) {
      Connection created = DriverManager.getConnection(jdbcUrl);
      ensureTable(created);
      created.setAutoCommit(false);
      connection = created;
    }
    return connection;
  }

  /** Creates the table if missing; on an auto-commit connection. */
  private static void ensureTable(Connection connection) throws SQLException {
    try (Statement statement = connection.createStatement()) {
      statement.execute(
          "CREATE TABLE IF NOT EXISTS "
              + TABLE
              + " (sink_id text PRIMARY KEY, checkpoint_directory text NOT NULL,"
              + " lease_epoch bigint NOT NULL)");
    } catch (SQLException e) {
      if (!DUPLICATE_TABLE.equals(e.getSQLState()) && !UNIQUE_VIOLATION.equals(e.getSQLState())) {
        throw e;
      }
    }
  }

  private static void rollbackQuietly(Connection connection) {
    try {
      connection.rollback();
    } catch (SQLException e) {
      // The connection broke: the server ended the transaction with it.
    }
  }
}
