package io.weir.postgres.sink;

import io.weir.api.checkpoint.FunctionInitializationContext;
import io.weir.api.checkpoint.FunctionSnapshotContext;
import io.weir.api.sink.CommitFailure;
import io.weir.api.sink.TransactionOutcome;
import io.weir.api.sink.TwoPhaseCommitOptions;
import io.weir.api.sink.TwoPhaseCommitSinkFunction;
import io.weir.api.state.StateSerializer;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.SortedMap;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The exactly-once PostgreSQL sink: one database transaction per checkpoint and subtask on a
 * writing connection; at the barrier of checkpoint N it inserts its commit record and runs {@code
 * PREPARE TRANSACTION 'weir.<job>.<sink>.<subtask>.<N>'}, which makes it durable in the server and
 * frees the connection for the next transaction; once N completed, {@code COMMIT PREPARED} on a
 * second, auto-commit connection. While a prepared transaction of the subtask is not committed yet,
 * the next transaction's records wait in memory instead of going to the database: they may touch
 * the rows it locked (an upsert of the same key), and its commit runs on this same thread, so a
 * statement waiting for those locks would wait forever. They are sent once the pending transactions
 * are committed, or at the next barrier, where a wait for locks ends after {@link #LOCK_TIMEOUT}
 * with an error that fails the task (the restore then commits and replays). On restore the prepared
 * transactions of the checkpoint are committed (an already committed one is recognised by its
 * commit record), then the subtask's prepared transactions that no checkpoint owns are rolled back,
 * before the first new transaction.
 *
 * <p>Fenced by the run's lease on the job's checkpoint directory ({@link SinkLeaseFence}): the
 * job's recovery step records the lease for the sink, and every commit and rollback of a prepared
 * transaction checks that no newer run recovered the sink since. Records and prepares are not
 * checked: what a stale run prepares is never committed, and the newer run rolls it back.
 */
final class ExactlyOncePostgresSink<T>
    extends TwoPhaseCommitSinkFunction<T, PostgresTransaction, Void> {
  private static final long serialVersionUID = 1L;
  private static final Logger LOG = LoggerFactory.getLogger(ExactlyOncePostgresSink.class);

  /** {@code lock_not_available}: {@code lock_timeout} ended a wait for locked rows. */
  private static final String LOCK_NOT_AVAILABLE = "55P03";

  /** {@code connection_exception} class: the connection broke; a new one may succeed. */
  private static final String CONNECTION_EXCEPTION_CLASS = "08";

  /** How long a statement waits for rows locked by another transaction before it fails. */
  static final String LOCK_TIMEOUT = "10s";

  private final JdbcSinkConfig<T> config;

  private transient TransactionIds ids;
  private transient Connection writer;
  private transient Connection control;
  private transient StatementBatches<T> batches;
  private transient long snapshotCheckpointId;
  private transient List<T> waitingForCommit;
  private transient boolean preparedPending;
  private transient boolean restored;
  private transient SinkLeaseFence fence;

  ExactlyOncePostgresSink(JdbcSinkConfig<T> config) {
    super(StateSerializer.java(), StateSerializer.java(), TwoPhaseCommitOptions.defaults());
    this.config = config;
  }

  /** Connects and checks the server before the restored transactions are committed. */
  @Override
  public void initializeState(FunctionInitializationContext context) throws Exception {
    waitingForCommit = new ArrayList<>();
    restored = context.isRestored();
    ids =
        TransactionIds.of(
            getRuntimeContext().jobName(),
            TransactionIds.sinkName(
                config, getRuntimeContext().operatorName(), getRuntimeContext().operatorUid()),
            getRuntimeContext().subtaskIndex());
    PreparedTransactions prepared = new PreparedTransactions(control());
    if (prepared.maxPreparedTransactions() == 0) {
      throw new IllegalStateException(
          "PostgreSQL at "
              + config.jdbcUrl()
              + " has max_prepared_transactions = 0; the exactly-once sink needs it set"
              + " (a few per sink subtask) in postgresql.conf");
    }
    CommitLog.ensureTable(control());
    writer = DriverManager.getConnection(config.jdbcUrl());
    writer.setAutoCommit(false);
    try (var statement = writer.createStatement()) {
      statement.execute("SET lock_timeout = '" + LOCK_TIMEOUT + "'");
    }
    writer.commit();
    batches = new StatementBatches<>(writer, config.statements(), config.batchSize());
    super.initializeState(context);
  }

  @Override
  protected PostgresTransaction beginTransaction() {
    // The database transaction begins with the first statement on the writing connection.
    return new PostgresTransaction(ids.prefix());
  }

  @Override
  protected void invoke(PostgresTransaction transaction, T value, Context context)
      throws Exception {
    if (preparedPending) {
      waitingForCommit.add(value);
    } else {
      maybeSendWaiting();
      batches.add(value);
    }
    transaction.recordWritten();
  }

  private void maybeSendWaiting() throws SQLException {
    if (waitingForCommit.isEmpty()) {
      return;
    }
    for (T record : waitingForCommit) {
      batches.add(record);
    }
    waitingForCommit.clear();
  }

  private boolean hasPreparedPending() {
    for (PostgresTransaction pending : pendingTransactions().values()) {
      if (pending.status() == TransactionStatus.PREPARED) {
        return true;
      }
    }
    return false;
  }

  /** Once no prepared transaction is pending, the waiting records go to the database. */
  @Override
  public void notifyCheckpointComplete(long checkpointId) throws Exception {
    try {
      super.notifyCheckpointComplete(checkpointId);
    } finally {
      preparedPending = hasPreparedPending();
    }
    if (!preparedPending) {
      maybeSendWaiting();
    }
  }

  /** Remembers the checkpoint, whose id names the transaction prepared in {@link #preCommit}. */
  @Override
  public void snapshotState(FunctionSnapshotContext context) throws Exception {
    snapshotCheckpointId = context.checkpointId();
    super.snapshotState(context);
    preparedPending = hasPreparedPending();
  }

  @Override
  protected void preCommit(PostgresTransaction transaction) throws Exception {
    try {
      maybeSendWaiting();
      batches.flush();
    } catch (SQLException e) {
      if (LOCK_NOT_AVAILABLE.equals(e.getSQLState())) {
        throw new IllegalStateException(
            "Sink "
                + ids.prefix()
                + ": the transaction of checkpoint "
                + snapshotCheckpointId
                + " waited "
                + LOCK_TIMEOUT
                + " for rows locked by a prepared transaction of an earlier checkpoint that is not"
                + " committed yet (pending: "
                + pendingTransactions()
                + ")",
            e);
      }
      throw e;
    }
    if (!transaction.hasRecords()) {
      transaction.empty();
      return;
    }
    String globalId = ids.globalId(snapshotCheckpointId);
    CommitLog.record(writer, ids.prefix(), snapshotCheckpointId);
    try (var statement = writer.createStatement()) {
      statement.execute("PREPARE TRANSACTION " + PreparedTransactions.quoted(globalId));
    }
    transaction.prepared(globalId, snapshotCheckpointId);
  }

  /**
   * Also called by the job-level recovery step on a copy of the sink that was never initialised (no
   * writer, no ids) and is never closed: that copy closes its connection after each commit, so that
   * restarts do not pile up connections until the server refuses clients.
   */
  @Override
  protected void commit(PostgresTransaction transaction) throws Exception {
    boolean recoveryCopy = writer == null;
    PostgresSinkRecovery.CommitOutcome outcome;
    try {
      outcome = fence().guarded(() -> new PostgresSinkRecovery(control()).commit(transaction));
    } catch (SQLException e) {
      closeControl();
      fence().close();
      throw e;
    } finally {
      if (recoveryCopy) {
        closeControl();
        fence().close();
      }
    }
    if (outcome == PostgresSinkRecovery.CommitOutcome.ALREADY_COMMITTED) {
      LOG.debug("{} was already committed", transaction);
    }
  }

  @Override
  protected void abort(PostgresTransaction transaction) throws Exception {
    if (transaction.status() == TransactionStatus.OPEN && transaction == currentTransaction()) {
      waitingForCommit.clear();
      batches.discard();
      writer.rollback();
    } else if (transaction.status() == TransactionStatus.PREPARED) {
      fence().guarded(() -> new PreparedTransactions(control()).rollback(transaction.globalId()));
    }
  }

  /**
   * The recovery step's first act: records the run's lease as the sink's newest, or refuses when a
   * newer run of the job recovered the sink already.
   */
  @Override
  protected void fenceEarlierAttempts() throws Exception {
    try {
      fence().recover();
    } finally {
      // The step's copy of the sink is never closed.
      fence().close();
    }
  }

  /**
   * The open transaction of the killed process was never prepared: the server rolled it back when
   * its connection died.
   */
  @Override
  protected void recoverAndAbort(PostgresTransaction transaction) {}

  /**
   * The job's recovery step, once the restored checkpoint's transactions are committed: for every
   * former subtask, whatever the new parallelism (after a scale-down no new subtask takes the
   * higher ones' ids), rolls back what it prepared for checkpoints that never completed, and
   * forgets its commit records of checkpoints after the restored one, which the restored job
   * numbers again (a savepoint restored into a new checkpoint directory).
   */
  @Override
  protected List<TransactionOutcome> proveOutcomes(
      SortedMap<Long, List<PostgresTransaction>> pending, List<PostgresTransaction> open)
      throws Exception {
    try {
      fence()
          .guarded(
              () -> {
                PostgresSinkRecovery recovery = new PostgresSinkRecovery(control());
                for (PostgresTransaction formerSubtask : open) {
                  TransactionIds ids = new TransactionIds(formerSubtask.transactionPrefix());
                  List<String> rolledBack = recovery.rollBackLingering(ids);
                  if (!rolledBack.isEmpty()) {
                    LOG.info(
                        "Rolled back {} prepared transaction(s) no checkpoint owns: {}",
                        rolledBack.size(),
                        rolledBack);
                  }
                  if (!pending.isEmpty()) {
                    CommitLog.forgetAfter(control(), ids.prefix(), pending.lastKey());
                  }
                }
                return null;
              });
    } finally {
      // The step's copy of the sink is never closed.
      closeControl();
      fence().close();
    }
    return super.proveOutcomes(pending, open);
  }

  /**
   * Runs after the restored transactions were committed (or on a fresh start), before the first new
   * one: rolls back this subtask's prepared transactions that no checkpoint owns. A fresh start
   * also forgets the subtask's commit records: no checkpoint of it can need them, and its
   * checkpoint ids may start again from 1 (a new checkpoint directory).
   */
  @Override
  protected Optional<Void> initializeUserContext() {
    try {
      List<String> rolledBack =
          fence()
              .guarded(
                  () -> {
                    List<String> lingering =
                        new PostgresSinkRecovery(control()).rollBackLingering(ids);
                    if (!restored) {
                      CommitLog.forget(control(), ids.prefix());
                    }
                    return lingering;
                  });
      if (!rolledBack.isEmpty()) {
        LOG.info(
            "Sink {} rolled back {} prepared transaction(s) no checkpoint owns: {}",
            getRuntimeContext().operatorName(),
            rolledBack.size(),
            rolledBack);
      }
    } catch (RuntimeException e) {
      throw e;
    } catch (Exception e) {
      throw new IllegalStateException(
          "Cannot roll back the lingering prepared transactions " + ids.likePattern() + ": " + e,
          e);
    }
    return Optional.empty();
  }

  /** The sink's prepared transactions, whose ids no other sink of the job may share. */
  @Override
  public Optional<String> transactionIdSpace(
      String jobName, String operatorName, String operatorUid) {
    return Optional.of(
        "PostgreSQL transaction ids '"
            + TransactionIds.sinkPrefix(
                jobName, TransactionIds.sinkName(config, operatorName, operatorUid))
            + "<subtask>.<checkpoint>'");
  }

  @Override
  protected CommitFailure classifyCommitFailure(
      PostgresTransaction transaction, long ageMillis, Exception cause) {
    if (cause instanceof PreparedTransactionLostException) {
      return CommitFailure.TRANSACTION_TIMED_OUT;
    }
    if (cause instanceof SQLException sql
        && sql.getSQLState() != null
        && sql.getSQLState().startsWith(CONNECTION_EXCEPTION_CLASS)) {
      return CommitFailure.RETRIABLE;
    }
    return super.classifyCommitFailure(transaction, ageMillis, cause);
  }

  @Override
  public void close() throws Exception {
    try {
      super.close();
    } finally {
      if (batches != null) {
        batches.close();
      }
      closeQuietly(writer);
      closeControl();
      fence().close();
    }
  }

  /**
   * The fence of the run's lease, from the runtime context of the subtask or of the job's recovery
   * step; a sink driven without one (a harness) fences nothing.
   */
  private SinkLeaseFence fence() {
    if (fence == null) {
      if (hasRuntimeContext()) {
        String sinkName =
            TransactionIds.sinkName(
                config, getRuntimeContext().operatorName(), getRuntimeContext().operatorUid());
        fence =
            new SinkLeaseFence(
                config.jdbcUrl(),
                getRuntimeContext().jobName(),
                sinkName,
                TransactionIds.sinkPrefix(getRuntimeContext().jobName(), sinkName),
                getRuntimeContext().leaseEpoch());
      } else {
        fence = SinkLeaseFence.none();
      }
    }
    return fence;
  }

  private Connection control() throws SQLException {
    if (control == null) {
      control = DriverManager.getConnection(config.jdbcUrl());
      control.setAutoCommit(true);
    }
    return control;
  }

  private void closeControl() {
    closeQuietly(control);
    control = null;
  }

  private static void closeQuietly(Connection connection) {
    if (connection == null) {
      return;
    }
    try {
      connection.close();
    } catch (SQLException e) {
      LOG.debug("Cannot close connection", e);
    }
  }
}
