package io.weir.api.sink;

import io.weir.api.annotation.Internal;
import io.weir.api.checkpoint.CheckpointDeclinedException;
import io.weir.api.functions.RuntimeContext;
import io.weir.api.state.StateSerializer;
import java.util.Collection;
import java.util.List;
import java.util.Optional;
import java.util.SortedMap;

/**
 * A {@link TwoPhaseCommitSinkFunction} as its {@link TwoPhaseCommitEngine} sees it: the sink's
 * hooks, made callable from the runtime's package, and what the engine needs to know of the sink.
 * Each method is the sink's method of the same name; its Javadoc there says what it must do. The
 * sink makes exactly one for its engine; nothing else implements it.
 *
 * <p>Threads: the engine calls the hooks on the threads its own contract names (the task thread,
 * the sink's commit thread for {@link #commit}, {@link #classifyCommitFailure} and {@link
 * #onTransactionTimedOut}, the job manager's thread for the recovery step); {@link
 * #describeTransaction} and {@link #recordCountOf} from any thread.
 */
@Internal
public interface TwoPhaseCommitHooks<IN, TXN, CONTEXT> {
  TXN beginTransaction() throws Exception;

  void invoke(TXN transaction, IN value, SinkFunction.Context context) throws Exception;

  void preCommit(TXN transaction) throws Exception;

  void commit(TXN transaction) throws Exception;

  void abort(TXN transaction) throws Exception;

  void fenceEarlierAttempts() throws Exception;

  void maybeDeclineCheckpoint(long checkpointId) throws CheckpointDeclinedException;

  void recoverAndCommit(TXN transaction) throws Exception;

  void recoverAndAbort(TXN transaction) throws Exception;

  Optional<CONTEXT> initializeUserContext();

  void finishRecoveringContext(Collection<TXN> handledTransactions) throws Exception;

  CommitFailure classifyCommitFailure(TXN transaction, long ageMillis, Exception cause);

  void onTransactionTimedOut(TXN transaction, long checkpointId, Exception cause) throws Exception;

  List<TransactionOutcome> proveOutcomes(SortedMap<Long, List<TXN>> pending, List<TXN> open)
      throws Exception;

  String describeTransaction(TXN transaction);

  long recordCountOf(TXN transaction);

  StateSerializer<TXN> transactionSerializer();

  StateSerializer<CONTEXT> contextSerializer();

  TwoPhaseCommitOptions options();

  /** The sink's runtime context; only on a subtask, after the runtime set it. */
  RuntimeContext runtimeContext();
}
