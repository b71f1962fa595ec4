package io.weir.api.sink;

import io.weir.api.checkpoint.CheckpointDeclinedException;
import io.weir.api.functions.RuntimeContext;
import io.weir.api.state.StateSerializer;
import java.util.Collection;
import java.util.List;
import java.util.Optional;
import java.util.SortedMap;

/**
 * The hooks of one {@link TwoPhaseCommitSinkFunction}, opened to its engine: they are protected on
 * the sink, which only this package may call from outside a subclass.
 */
final class OpenedHooks<IN, TXN, CONTEXT> implements TwoPhaseCommitHooks<IN, TXN, CONTEXT> {
  private final TwoPhaseCommitSinkFunction<IN, TXN, CONTEXT> sink;
  private final StateSerializer<TXN> transactionSerializer;
  private final StateSerializer<CONTEXT> contextSerializer;
  private final TwoPhaseCommitOptions options;

  OpenedHooks(
      TwoPhaseCommitSinkFunction<IN, TXN, CONTEXT> sink,
      StateSerializer<TXN> transactionSerializer,
      StateSerializer<CONTEXT> contextSerializer,
      TwoPhaseCommitOptions options) {
    this.sink = sink;
    this.transactionSerializer = transactionSerializer;
    this.contextSerializer = contextSerializer;
    this.options = options;
  }

  @Override
  public TXN beginTransaction() throws Exception {
    return sink.beginTransaction();
  }

  @Override
  public void invoke(TXN transaction, IN value, SinkFunction.Context context) throws Exception {
    sink.invoke(transaction, value, context);
  }

  @Override
  public void preCommit(TXN transaction) throws Exception {
    sink.preCommit(transaction);
  }

  @Override
  public void commit(TXN transaction) throws Exception {
    sink.commit(transaction);
  }

  @Override
  public void abort(TXN transaction) throws Exception {
    sink.abort(transaction);
  }

  @Override
  public void fenceEarlierAttempts() throws Exception {
    sink.fenceEarlierAttempts();
  }

  @Override
  public void maybeDeclineCheckpoint(long checkpointId) throws CheckpointDeclinedException {
    sink.maybeDeclineCheckpoint(checkpointId);
  }

  @Override
  public void recoverAndCommit(TXN transaction) throws Exception {
    sink.recoverAndCommit(transaction);
  }

  @Override
  public void recoverAndAbort(TXN transaction) throws Exception {
    sink.recoverAndAbort(transaction);
  }

  @Override
  public Optional<CONTEXT> initializeUserContext() {
    return sink.initializeUserContext();
  }

  @Override
  public void finishRecoveringContext(Collection<TXN> handledTransactions) throws Exception {
    sink.finishRecoveringContext(handledTransactions);
  }

  @Override
  public CommitFailure classifyCommitFailure(TXN transaction, long ageMillis, Exception cause) {
    return sink.classifyCommitFailure(transaction, ageMillis, cause);
  }

  @Override
  public void onTransactionTimedOut(TXN transaction, long checkpointId, Exception cause)
      throws Exception {
    sink.onTransactionTimedOut(transaction, checkpointId, cause);
  }

  @Override
  public List<TransactionOutcome> proveOutcomes(SortedMap<Long, List<TXN>> pending, List<TXN> open)
      throws Exception {
    return sink.proveOutcomes(pending, open);
  }

  @Override
  public String describeTransaction(TXN transaction) {
    return sink.describeTransaction(transaction);
  }

  @Override
  public long recordCountOf(TXN transaction) {
    return sink.recordCountOf(transaction);
  }

  @Override
  public StateSerializer<TXN> transactionSerializer() {
    return transactionSerializer;
  }

  @Override
  public StateSerializer<CONTEXT> contextSerializer() {
    return contextSerializer;
  }

  @Override
  public TwoPhaseCommitOptions options() {
    return options;
  }

  @Override
  public RuntimeContext runtimeContext() {
    return sink.getRuntimeContext();
  }
}
