package io.weir.runtime.sink.twophase;

import io.weir.api.checkpoint.FunctionInitializationContext;
import io.weir.api.checkpoint.FunctionSnapshotContext;
import io.weir.api.sink.SinkFunction;
import io.weir.api.sink.TransactionHolder;
import io.weir.api.sink.TransactionOutcome;
import io.weir.api.sink.TransactionView;
import io.weir.api.sink.TwoPhaseCommitEngine;
import io.weir.api.sink.TwoPhaseCommitHooks;
import io.weir.api.sink.TwoPhaseCommitOptions;
import io.weir.api.sink.TwoPhaseCommitSinkFunction;
import io.weir.api.state.ListState;
import io.weir.api.state.ListStateDescriptor;
import java.util.List;
import java.util.Optional;
import java.util.SortedMap;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The two-phase commit of one sink subtask, as {@link TwoPhaseCommitSinkFunction} describes it:
 * begins a transaction, pre-commits it at each barrier and keeps it pending under the checkpoint's
 * id, commits the pending ones when a checkpoint completes (here, or in the background), writes
 * them all to operator state, and aborts the open one on close. Restores and the job-level recovery
 * go to {@link TransactionRecovery}.
 *
 * <p>Threads as the sink's contract says: everything but {@link #transactionViews} on the task
 * thread (or, for {@link #recoverTransactions}, the recovery step's thread), one call at a time.
 */
final class TwoPhaseCommitProtocol<IN, TXN, CONTEXT>
    implements TwoPhaseCommitEngine<IN, TXN, CONTEXT> {
  private static final Logger LOG = LoggerFactory.getLogger(TwoPhaseCommitSinkFunction.class);

  // Between two age checks on the records' path: far below any transaction timeout's tenth.
  private static final long AGE_CHECK_PERIOD_MILLIS = 1_000;

  private final TwoPhaseCommitHooks<IN, TXN, CONTEXT> sink;
  private final TwoPhaseCommitOptions options;
  private final TransactionCommitter<TXN> committer;
  private final TwoPhaseCommitStateCodec<TXN, CONTEXT> codec;
  private final TransactionRecovery<TXN, CONTEXT> recovery;
  private final SinkTransactions<TXN> transactions;
  private final boolean checksTransactionAge;
  private long nextAgeCheckMillis;
  private ListState<byte[]> state;
  private Optional<CONTEXT> userContext = Optional.empty();
  // Null unless the options commit in the background.
  private BackgroundCommitter<TXN> backgroundCommitter;

  TwoPhaseCommitProtocol(TwoPhaseCommitHooks<IN, TXN, CONTEXT> sink) {
    this.sink = sink;
    this.options = sink.options();
    this.committer = new TransactionCommitter<>(sink);
    this.codec =
        new TwoPhaseCommitStateCodec<>(sink.transactionSerializer(), sink.contextSerializer());
    this.recovery = new TransactionRecovery<>(sink, committer, codec);
    this.transactions = new SinkTransactions<>(sink);
    this.checksTransactionAge = options.transactionTimeout().isPresent();
  }

  @Override
  public void initializeState(FunctionInitializationContext context) throws Exception {
    state =
        context
            .getOperatorStateStore()
            .getListState(new ListStateDescriptor<>(TwoPhaseCommitSinkFunction.STATE_NAME));
    List<byte[]> restored = context.isRestored() ? state.get() : List.of();
    if (!restored.isEmpty()) {
      TransactionRecovery.Restored<TXN, CONTEXT> settled =
          recovery.restoreSubtask(restored, context.restoredTransactionsSettled());
      // The sink may read its context while it finishes recovering it.
      userContext = settled.context();
      sink.finishRecoveringContext(settled.handled());
    }
    if (userContext.isEmpty()) {
      userContext = sink.initializeUserContext();
    }
    transactions.begin(begin());
    transactions.publish();
    if (options.commitInBackground()) {
      backgroundCommitter =
          new BackgroundCommitter<>(
              committer,
              sink::commit,
              sink.runtimeContext().commitObserver(),
              "commits of " + sink.runtimeContext().operatorName());
    }
  }

  @Override
  public void invoke(IN value, SinkFunction.Context context) throws Exception {
    TransactionHolder<TXN> open = transactions.open();
    if (open == null) {
      throw new IllegalStateException("No open transaction: initializeState was not called");
    }
    if (isAgeCheckDue()) {
      TransactionAgeLimit.check(transactions.pending(), open, options);
    }
    sink.invoke(open.handle(), value, context);
  }

  /**
   * Whether the records' path checks the transactions' ages now: at most once a period, and only
   * when the transaction timeout is known, so a record costs one clock read at most.
   */
  private boolean isAgeCheckDue() {
    if (!checksTransactionAge) {
      return false;
    }
    long nowMillis = options.clock().millis();
    if (nowMillis < nextAgeCheckMillis) {
      return false;
    }
    nextAgeCheckMillis = nowMillis + AGE_CHECK_PERIOD_MILLIS;
    return true;
  }

  @Override
  public void snapshotState(FunctionSnapshotContext context) throws Exception {
    long checkpointId = context.checkpointId();
    maybeTakeBackgroundCommits();
    transactions.checkIsAfterPending(checkpointId);
    sink.maybeDeclineCheckpoint(checkpointId);
    TransactionAgeLimit.check(transactions.pending(), transactions.open(), options);
    sink.preCommit(transactions.open().handle());
    transactions.preCommitted(checkpointId, begin());
    transactions.pending().forEach(committer::maybeWarnAboutAge);
    state.update(
        List.of(
            codec.encode(
                new TwoPhaseCommitState<>(
                    transactions.open(), transactions.pending(), userContext))));
    transactions.publish();
  }

  @Override
  public void notifyCheckpointComplete(long checkpointId) throws Exception {
    SortedMap<Long, TransactionHolder<TXN>> pending = transactions.pending();
    SortedMap<Long, TransactionHolder<TXN>> due =
        checkpointId == Long.MAX_VALUE ? pending : pending.headMap(checkpointId + 1);
    if (backgroundCommitter != null) {
      maybeTakeBackgroundCommits();
      due.forEach(backgroundCommitter::submit);
      return;
    }
    try {
      committer.commitAll(due, sink::commit, sink.runtimeContext().commitObserver());
    } finally {
      transactions.publish();
    }
  }

  @Override
  public void notifyCheckpointAborted(long checkpointId) {
    TransactionAgeLimit.check(transactions.pending(), transactions.open(), options);
  }

  @Override
  public void close() throws Exception {
    if (backgroundCommitter != null) {
      backgroundCommitter.close();
    }
    try {
      abortOpen();
    } finally {
      maybeTakeBackgroundCommits();
    }
  }

  private void abortOpen() {
    TransactionHolder<TXN> open = transactions.takeOpenForAbort();
    if (open == null) {
      return;
    }
    try {
      sink.abort(open.handle());
    } catch (Exception e) {
      LOG.warn("Cannot abort transaction {}", open.handle(), e);
    }
  }

  @Override
  public void awaitCommitsInFlight() throws Exception {
    if (backgroundCommitter != null) {
      backgroundCommitter.awaitSubmitted();
      maybeTakeBackgroundCommits();
    }
  }

  /**
   * Drops from the pending transactions those whose background commit returned, then throws the
   * first background commit failure. Task thread; nothing without background commits.
   */
  private void maybeTakeBackgroundCommits() throws Exception {
    if (backgroundCommitter == null) {
      return;
    }
    boolean changed = false;
    for (BackgroundCommitter.Committed done = backgroundCommitter.takeCommitted();
        done != null;
        done = backgroundCommitter.takeCommitted()) {
      changed |= transactions.settled(done.checkpointId(), done.status());
    }
    if (changed && transactions.open() != null) {
      transactions.publish();
    }
    backgroundCommitter.maybeThrowFailure();
  }

  private TransactionHolder<TXN> begin() throws Exception {
    return new TransactionHolder<>(sink.beginTransaction(), options.clock().millis());
  }

  @Override
  public List<TransactionOutcome> recoverTransactions(List<byte[]> restoredStates)
      throws Exception {
    return recovery.recoverTransactions(restoredStates);
  }

  @Override
  public List<TransactionOutcome> outcomesOfRecoveredCommits(SortedMap<Long, List<TXN>> pending) {
    return recovery.outcomesOfRecoveredCommits(pending);
  }

  @Override
  public TXN currentTransaction() {
    TransactionHolder<TXN> open = transactions.open();
    return open == null ? null : open.handle();
  }

  @Override
  public SortedMap<Long, TXN> pendingTransactions() {
    return transactions.pendingHandles();
  }

  @Override
  public Optional<CONTEXT> userContext() {
    return userContext;
  }

  @Override
  public List<TransactionView> transactionViews() {
    return transactions.views();
  }
}
