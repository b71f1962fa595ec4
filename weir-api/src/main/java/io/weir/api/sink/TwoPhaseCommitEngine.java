package io.weir.api.sink;

import io.weir.api.annotation.Internal;
import io.weir.api.checkpoint.FunctionInitializationContext;
import io.weir.api.checkpoint.FunctionSnapshotContext;
import java.util.List;
import java.util.Optional;
import java.util.ServiceLoader;
import java.util.SortedMap;

/**
 * What runs the two-phase commit of one {@link TwoPhaseCommitSinkFunction} instance: the open and
 * pending transactions, the commits (on the task thread or in the background), the state written to
 * checkpoints, and the recovery. It lives in the runtime; the sink is a facade that hands each call
 * of the runtime to it, and the engine calls the sink back through its {@link TwoPhaseCommitHooks}.
 *
 * <p>Each method is the sink's method of the same name, with the same threads, order and failures
 * as the sink's Javadoc gives; {@link #transactionViews} may be called from any thread, the others
 * from one thread at a time.
 *
 * @param <IN> the records
 * @param <TXN> the transaction handle
 * @param <CONTEXT> the user context kept in the checkpoint beside the transactions
 */
@Internal
public interface TwoPhaseCommitEngine<IN, TXN, CONTEXT> {
  void initializeState(FunctionInitializationContext context) throws Exception;

  void invoke(IN value, SinkFunction.Context context) throws Exception;

  void snapshotState(FunctionSnapshotContext context) throws Exception;

  void notifyCheckpointComplete(long checkpointId) throws Exception;

  void notifyCheckpointAborted(long checkpointId);

  void close() throws Exception;

  void awaitCommitsInFlight() throws Exception;

  List<TransactionOutcome> recoverTransactions(List<byte[]> restoredStates) throws Exception;

  /**
   * The outcomes of the pending transactions the last {@link #recoverTransactions} committed, as
   * the sink's default {@code proveOutcomes} gives them: committed, unless the sink dropped one as
   * timed out; record counts unknown.
   */
  List<TransactionOutcome> outcomesOfRecoveredCommits(SortedMap<Long, List<TXN>> pending);

  TXN currentTransaction();

  SortedMap<Long, TXN> pendingTransactions();

  Optional<CONTEXT> userContext();

  List<TransactionView> transactionViews();

  /**
   * Makes the engine of one sink instance. The runtime provides the one implementation, found with
   * {@link ServiceLoader} on the class loader of the API; it keeps no state of its own, so one
   * instance serves every sink of every job in the process.
   */
  @Internal
  interface Factory {
    <IN, TXN, CONTEXT> TwoPhaseCommitEngine<IN, TXN, CONTEXT> create(
        TwoPhaseCommitHooks<IN, TXN, CONTEXT> sink);
  }
}
