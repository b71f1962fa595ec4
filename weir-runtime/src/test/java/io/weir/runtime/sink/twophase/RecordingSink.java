package io.weir.runtime.sink.twophase;

import io.weir.api.sink.CommitFailure;
import io.weir.api.sink.TwoPhaseCommitOptions;
import io.weir.api.sink.TwoPhaseCommitSinkFunction;
import java.io.Serializable;
import java.time.Duration;
import java.util.Collection;
import java.util.List;
import java.util.Optional;

/** A two-phase commit sink over {@link FakeTransactionalStore} that logs every hook it gets. */
final class RecordingSink
    extends TwoPhaseCommitSinkFunction<String, RecordingSink.Transaction, String> {
  private static final long serialVersionUID = 1L;

  /** The handle kept in checkpoints. */
  record Transaction(int number) implements Serializable {
    @Override
    public String toString() {
      return "txn-" + number;
    }
  }

  /** A failure the sink classifies as retriable. */
  static final class TransientCommitException extends Exception {
    TransientCommitException(String message) {
      super(message);
    }
  }

  // The store stands for an external system; it is never shipped with the sink.
  private final transient FakeTransactionalStore store;

  RecordingSink(FakeTransactionalStore store, TwoPhaseCommitOptions options) {
    super(options);
    this.store = store;
  }

  RecordingSink(FakeTransactionalStore store) {
    this(store, TwoPhaseCommitOptions.builder().commitRetries(1, Duration.ZERO).build());
  }

  @Override
  protected Transaction beginTransaction() {
    Transaction transaction = new Transaction(store.begin());
    store.log("begin " + transaction.number());
    return transaction;
  }

  @Override
  protected void invoke(Transaction transaction, String value, Context context) {
    store.log("invoke " + transaction.number() + " " + value);
    store.write(transaction.number(), value);
  }

  @Override
  protected void preCommit(Transaction transaction) {
    store.log("preCommit " + transaction.number());
    store.preCommit(transaction.number());
  }

  @Override
  protected void commit(Transaction transaction) throws Exception {
    store.log("commit " + transaction.number());
    store.commit(transaction.number());
  }

  @Override
  protected void abort(Transaction transaction) {
    store.log("abort " + transaction.number());
    store.abort(transaction.number());
  }

  @Override
  protected void recoverAndCommit(Transaction transaction) throws Exception {
    store.log("recoverAndCommit " + transaction.number());
    store.commit(transaction.number());
  }

  @Override
  protected void recoverAndAbort(Transaction transaction) {
    store.log("recoverAndAbort " + transaction.number());
    store.abort(transaction.number());
  }

  @Override
  protected Optional<String> initializeUserContext() {
    store.log("initializeUserContext");
    return Optional.of("context");
  }

  @Override
  protected void finishRecoveringContext(Collection<Transaction> handledTransactions) {
    store.log(
        "finishRecoveringContext "
            + handledTransactions.stream().map(Transaction::number).toList()
            + " "
            + userContext().orElse("none"));
  }

  @Override
  protected CommitFailure classifyCommitFailure(
      Transaction transaction, long ageMillis, Exception cause) {
    return cause instanceof TransientCommitException
        ? CommitFailure.RETRIABLE
        : super.classifyCommitFailure(transaction, ageMillis, cause);
  }

  /** The checkpoint ids with a pending transaction, in order. */
  List<Long> pendingCheckpointIds() {
    return List.copyOf(pendingTransactions().keySet());
  }
}
