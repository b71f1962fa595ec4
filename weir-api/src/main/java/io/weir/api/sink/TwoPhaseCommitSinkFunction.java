package io.weir.api.sink;

import io.weir.api.annotation.Public;
import io.weir.api.checkpoint.CheckpointDeclinedException;
import io.weir.api.checkpoint.CheckpointListener;
import io.weir.api.checkpoint.CheckpointedFunction;
import io.weir.api.checkpoint.CommitsInBackground;
import io.weir.api.checkpoint.FunctionInitializationContext;
import io.weir.api.checkpoint.FunctionSnapshotContext;
import io.weir.api.functions.AbstractRichFunction;
import io.weir.api.state.StateSerializer;
import java.lang.System.Logger.Level;
import java.time.Duration;
import java.util.Collection;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import java.util.ServiceLoader;
import java.util.SortedMap;

/**
 * Base of every exactly-once sink: records go into a transaction of the external system, one
 * transaction per checkpoint, committed only once the checkpoint completed.
 *
 * <p>Transaction lifecycle ({@link TransactionStatus}): {@code beginTransaction -> invoke* ->
 * preCommit (at the barrier of checkpoint N) -> pending -> commit (after N completed)}; a
 * transaction open when the task fails is aborted, by {@link #close} or on restore by {@code
 * recoverAndAbort}. An illegal move (committing what was never pre-committed) throws. The
 * transaction of an aborted checkpoint stays pending and commits with the next completed one
 * ({@link #notifyCheckpointAborted} says why); a sink that cannot begin its next transaction
 * declines the checkpoint ({@link #maybeDeclineCheckpoint}) instead of failing.
 *
 * <p>Recovery is a job-level step: before any subtask of a (re)started job runs, the runtime calls
 * {@link #recoverTransactions} once, on a copy of the sink, with the state of all former subtasks;
 * it commits every restored pending transaction, aborts the restored open ones, and proves each
 * outcome ({@link #proveOutcomes}). The subtasks then only take their user context from the
 * restored state.
 *
 * <p>The runtime calls everything else on the task thread, never concurrently: {@link
 * #initializeState} (begins the first transaction), {@code open}, then {@link #invoke(Object,
 * Context)} per record, interleaved with {@link #snapshotState} at each barrier and {@link
 * #notifyCheckpointComplete} after a checkpoint completed, then {@link #close}. The hooks a
 * subclass implements are called from these methods, so on the task thread too; they may block (a
 * flush, an fsync, a broker round trip).
 *
 * <p>Except the commit, with {@link TwoPhaseCommitOptions.Builder#commitInBackground()}: then
 * {@link #notifyCheckpointComplete} only hands the due transactions to the sink's commit thread
 * (run by the runtime's engine), which calls {@link #commit} (and {@link #classifyCommitFailure},
 * {@link #onTransactionTimedOut}) one transaction at a time in checkpoint order, while the task
 * thread goes on with {@code invoke}, {@code beginTransaction} and {@code preCommit} of other
 * transactions. A transaction stays pending, and in every snapshot, until its commit returned and
 * the task thread took the result (at the next barrier, notification or close); a failed commit
 * fails the task there, naming checkpoint and transaction. {@link #close} waits for the commits
 * handed over, or abandons them when the task is cancelled: they are pending in the last
 * checkpoint, and the restore commits them.
 *
 * <p>What a subclass must guarantee: {@code preCommit} makes the transaction's records durable in
 * the external system so that only {@code commit} remains; {@code commit} is idempotent (committing
 * a transaction that an earlier attempt or process already committed is not an error), because
 * after a failure the restore commits again every transaction pending in the checkpoint; {@code
 * abort} is idempotent too. The transaction handle is written to checkpoints with the transaction
 * serializer, so it must carry everything a new process needs to commit or abort it.
 *
 * @param <IN> the records
 * @param <TXN> the transaction handle
 * @param <CONTEXT> optional user context kept in the checkpoint beside the transactions
 */
@Public
public abstract class TwoPhaseCommitSinkFunction<IN, TXN, CONTEXT> extends AbstractRichFunction
    implements SinkFunction<IN>,
        CheckpointedFunction,
        CheckpointListener,
        CommitsInBackground,
        RecoverableSink {
  private static final long serialVersionUID = 1L;
  private static final System.Logger LOG =
      System.getLogger(TwoPhaseCommitSinkFunction.class.getName());

  /** The name of the operator list state; keep it stable, checkpoints are found by it. */
  public static final String STATE_NAME = "two-phase-commit-state";

  private final StateSerializer<TXN> transactionSerializer;
  private final StateSerializer<CONTEXT> contextSerializer;
  private final TwoPhaseCommitOptions options;

  // Made on first use on the task thread or the recovery step's thread (a copied sink starts
  // without one); volatile because observers read the transactions from any thread.
  private transient volatile TwoPhaseCommitEngine<IN, TXN, CONTEXT> engine;

  /** Java serialization for transactions and context, default options. */
  protected TwoPhaseCommitSinkFunction() {
    this(TwoPhaseCommitOptions.defaults());
  }

  /** Java serialization for transactions and context. */
  protected TwoPhaseCommitSinkFunction(TwoPhaseCommitOptions options) {
    this(StateSerializer.java(), StateSerializer.java(), options);
  }

  protected TwoPhaseCommitSinkFunction(
      StateSerializer<TXN> transactionSerializer,
      StateSerializer<CONTEXT> contextSerializer,
      TwoPhaseCommitOptions options) {
    this.transactionSerializer = Objects.requireNonNull(transactionSerializer);
    this.contextSerializer = Objects.requireNonNull(contextSerializer);
    this.options = Objects.requireNonNull(options);
  }

  // ---- hooks of a sink -------------------------------------------------------------------

  /** Begins a new transaction. Called at start-up and right after each barrier's preCommit. */
  protected abstract TXN beginTransaction() throws Exception;

  /** Writes one record into the transaction. */
  protected abstract void invoke(TXN transaction, IN value, Context context) throws Exception;

  /**
   * Makes the transaction's records durable so that only the commit remains (a flush, an fsync). No
   * record is added to the transaction afterwards. An exception declines the checkpoint.
   */
  protected abstract void preCommit(TXN transaction) throws Exception;

  /**
   * Makes the pre-committed transaction visible. Must be idempotent: a transaction already
   * committed by an earlier attempt or process is committed again without error. An exception is
   * classified by {@link #classifyCommitFailure}.
   */
  protected abstract void commit(TXN transaction) throws Exception;

  /** Discards the transaction; idempotent, and it may be called for a transaction never written. */
  protected abstract void abort(TXN transaction) throws Exception;

  /**
   * Called first by the job-level recovery step ({@link #recoverTransactions}), before any
   * transaction is settled and before any task of the new attempt starts: a sink whose external
   * system can shut out the tasks of earlier attempts that may still run (zombies: a stopped task
   * manager woken after the job restarted elsewhere) does it here, so that they can neither commit
   * nor delete anything afterwards. Must be idempotent. Default: nothing (a Kafka producer is
   * fenced by its transactional id's epoch instead).
   */
  protected void fenceEarlierAttempts() throws Exception {}

  /**
   * Called at each barrier before anything else of the snapshot: throws a {@link
   * CheckpointDeclinedException} when the sink cannot begin the transaction that would follow this
   * checkpoint's (e.g. every transactional id of a bounded pool still waits for its commit). The
   * checkpoint is then declined and records go on into the open transaction, which the next
   * checkpoint pre-commits; nothing is lost and the task does not fail. Default: never declines.
   */
  protected void maybeDeclineCheckpoint(long checkpointId) throws CheckpointDeclinedException {}

  /**
   * Commits a transaction that was pending in the restored checkpoint, possibly begun by another
   * process. That checkpoint completed, so its transactions must be committed. Default: {@link
   * #commit}.
   */
  protected void recoverAndCommit(TXN transaction) throws Exception {
    commit(transaction);
  }

  /** Aborts the transaction that was open at the restored checkpoint. Default: {@link #abort}. */
  protected void recoverAndAbort(TXN transaction) throws Exception {
    abort(transaction);
  }

  /** The user context on a fresh start (or a restore without one). Default: none. */
  protected Optional<CONTEXT> initializeUserContext() {
    return Optional.empty();
  }

  /**
   * Called on restore after every restored transaction was committed or aborted, with all of them
   * (pending ones first, in checkpoint order, then the open ones), before the next one begins.
   */
  protected void finishRecoveringContext(Collection<TXN> handledTransactions) throws Exception {}

  /**
   * Says what a commit failure means. Default: {@link CommitFailure#TRANSACTION_TIMED_OUT} when a
   * transaction timeout is configured and the transaction is older, else {@link
   * CommitFailure#FATAL}. Subclasses recognise their transient errors as {@link
   * CommitFailure#RETRIABLE}.
   */
  protected CommitFailure classifyCommitFailure(TXN transaction, long ageMillis, Exception cause) {
    boolean timedOut =
        options.transactionTimeout().map(timeout -> ageMillis >= timeout.toMillis()).orElse(false);
    return timedOut ? CommitFailure.TRANSACTION_TIMED_OUT : CommitFailure.FATAL;
  }

  /**
   * The transaction can never be committed because it timed out; its records are lost. Returning
   * normally drops it from the pending transactions. Default: with {@link
   * TwoPhaseCommitOptions#ignoreFailuresAfterTransactionTimeout()} log an error and drop it, else
   * throw a {@link TransactionCommitException} (the task fails and keeps failing, so that someone
   * looks).
   */
  protected void onTransactionTimedOut(TXN transaction, long checkpointId, Exception cause)
      throws Exception {
    String reason =
        "the transaction timed out before it was committed, its records are lost (" + cause + ")";
    if (!options.ignoreFailuresAfterTransactionTimeout()) {
      throw new TransactionCommitException(checkpointId, transaction, reason, cause);
    }
    LOG.log(
        Level.ERROR,
        "Dropping transaction " + transaction + " of checkpoint " + checkpointId + ": " + reason);
  }

  // ---- what subclasses may read ----------------------------------------------------------

  /** The transaction records are written to, or null before start-up and after close. */
  protected final TXN currentTransaction() {
    return engine().currentTransaction();
  }

  /** The pre-committed transactions waiting for their checkpoint to complete, by checkpoint id. */
  protected final SortedMap<Long, TXN> pendingTransactions() {
    return engine().pendingTransactions();
  }

  /**
   * Waits until the commits running in the background returned and drops the committed ones from
   * {@link #pendingTransactions()}; throws the first that failed. For the runtime (see {@link
   * CommitsInBackground}) and for a sink that needs something a committing transaction holds (the
   * transactional id of a bounded pool). Task thread; nothing without {@link
   * TwoPhaseCommitOptions.Builder#commitInBackground()}.
   */
  @Override
  public final void awaitCommitsInFlight() throws Exception {
    engine().awaitCommitsInFlight();
  }

  protected final Optional<CONTEXT> userContext() {
    return engine().userContext();
  }

  protected final TwoPhaseCommitOptions options() {
    return options;
  }

  /** How observers name a transaction; called from any thread. Default: its {@code toString}. */
  protected String describeTransaction(TXN transaction) {
    return String.valueOf(transaction);
  }

  /**
   * The records written into a transaction so far, or -1 when the sink does not count them; called
   * from any thread while the task thread may write, so a count a few records old is fine (a plain
   * field, never a lock or an atomic on the record path). Default: -1.
   */
  protected long recordCountOf(TXN transaction) {
    return -1;
  }

  // ---- what observers read ---------------------------------------------------------------

  /**
   * The open transaction and the pending ones, in checkpoint order, as of the last barrier,
   * notification or begin; empty before start-up and after close. Any thread, never blocks.
   */
  @Override
  public final List<TransactionView> transactionViews() {
    TwoPhaseCommitEngine<IN, TXN, CONTEXT> now = engine;
    return now == null ? List.of() : now.transactionViews();
  }

  // ---- what the runtime calls ------------------------------------------------------------

  @Override
  public final void invoke(IN value, Context context) throws Exception {
    engine().invoke(value, context);
  }

  /**
   * Begins the first transaction, or on restore commits the restored pending transactions and
   * aborts the restored open ones first. A subclass overriding this calls it.
   */
  @Override
  public void initializeState(FunctionInitializationContext context) throws Exception {
    engine().initializeState(context);
  }

  /**
   * The job-level recovery step (see {@link RecoverableSink}): commits every pending transaction of
   * all former subtasks with {@link #recoverAndCommit}, in checkpoint order, aborts their open ones
   * with {@link #recoverAndAbort}, then returns what {@link #proveOutcomes} proves.
   */
  @Override
  public final List<TransactionOutcome> recoverTransactions(List<byte[]> restoredStates)
      throws Exception {
    return engine().recoverTransactions(restoredStates);
  }

  /**
   * Proves, after {@link #recoverTransactions} committed the restored pending transactions and
   * aborted the open ones, whether each pending one is committed. Default: each is {@link
   * TransactionOutcome.Outcome#COMMITTED}, since {@link #recoverAndCommit} returned normally and a
   * commit that returns has committed (a sink whose commit can return without knowing overrides
   * this), except those {@link #onTransactionTimedOut} dropped, which are aborted; the record count
   * is unknown. Throw when an outcome cannot be proven.
   *
   * @param pending the restored pending transactions by checkpoint id
   * @param open the restored open transactions, all aborted
   */
  protected List<TransactionOutcome> proveOutcomes(
      SortedMap<Long, List<TXN>> pending, List<TXN> open) throws Exception {
    return engine().outcomesOfRecoveredCommits(pending);
  }

  /** The external system's transaction timeout, as the options give it. */
  @Override
  public Optional<Duration> transactionTimeout() {
    return options.transactionTimeout();
  }

  /**
   * Pre-commits the open transaction, keeps it pending under the checkpoint's id, begins the next
   * one, and writes all of them to operator state. When {@link #maybeDeclineCheckpoint} declines,
   * nothing of this happens: the open transaction stays open and takes the next records.
   */
  @Override
  public void snapshotState(FunctionSnapshotContext context) throws Exception {
    engine().snapshotState(context);
  }

  /**
   * Commits, in checkpoint order, every pending transaction of a checkpoint up to {@code
   * checkpointId}: notifications of earlier checkpoints may have been lost. Nothing pending is
   * fine. When a commit fails the others are still tried; the failed ones stay pending and the
   * first failure is thrown, so the task fails and the restore retries them.
   */
  @Override
  public void notifyCheckpointComplete(long checkpointId) throws Exception {
    engine().notifyCheckpointComplete(checkpointId);
  }

  /**
   * Nothing to commit nor abort, by design: the aborted checkpoint's transaction stays pending and
   * is committed when a later checkpoint completes, since its records precede that checkpoint's
   * barrier too, and that checkpoint's source positions are past them. Aborting it here would lose
   * its records: the job goes on from the sources' current positions, so nothing would write them
   * again unless the job restored an earlier checkpoint. A job that does restore aborts it anyway,
   * as a lingering transaction, before its tasks start, and rereads its records from the restored
   * positions. So when a transaction nears the external system's timeout, the task fails, here or
   * at the next barrier, while a restore can still do that.
   */
  @Override
  public void notifyCheckpointAborted(long checkpointId) {
    engine().notifyCheckpointAborted(checkpointId);
  }

  /**
   * Aborts the open transaction and commits nothing. Pending transactions are left as they are: a
   * restore commits them. With background commits it first waits for the commits handed over (or
   * abandons them when the task is cancelled), and then throws the first commit failure not thrown
   * yet, so that a job whose last commits failed does not end as if they had succeeded; otherwise
   * it never throws.
   */
  @Override
  public void close() throws Exception {
    engine().close();
  }

  // ---- internals -------------------------------------------------------------------------

  private TwoPhaseCommitEngine<IN, TXN, CONTEXT> engine() {
    TwoPhaseCommitEngine<IN, TXN, CONTEXT> current = engine;
    if (current == null) {
      current =
          Engines.FACTORY.create(
              new OpenedHooks<>(this, transactionSerializer, contextSerializer, options));
      engine = current;
    }
    return current;
  }

  /**
   * The runtime's engine factory, looked up once: it is stateless, so one serves every sink of
   * every job in the process.
   */
  private static final class Engines {
    static final TwoPhaseCommitEngine.Factory FACTORY =
        ServiceLoader.load(
                TwoPhaseCommitEngine.Factory.class,
                TwoPhaseCommitSinkFunction.class.getClassLoader())
            .findFirst()
            .orElseThrow(
                () ->
                    new IllegalStateException(
                        "No two-phase-commit engine on the class path: a two-phase-commit sink"
                            + " runs only with weir-runtime"));
  }
}
