package io.weir.testing;

import io.weir.api.sink.TwoPhaseCommitSinkFunction;

/**
 * A two-phase-commit sink over a {@link MemoryStore}; with {@code commitOnRestore} false it forgets
 * the pending transactions of the checkpoint it restores, a classic way to lose records.
 */
final class MemorySink extends TwoPhaseCommitSinkFunction<String, Integer, Void> {
  private static final long serialVersionUID = 1L;

  // The store stands for an external system; the fixture hands it to every new instance.
  private final transient MemoryStore store;
  private final boolean commitOnRestore;

  MemorySink(MemoryStore store, boolean commitOnRestore) {
    this.store = store;
    this.commitOnRestore = commitOnRestore;
  }

  @Override
  protected Integer beginTransaction() {
    return store.begin();
  }

  @Override
  protected void invoke(Integer transaction, String value, Context context) {
    store.write(transaction, value);
  }

  @Override
  protected void preCommit(Integer transaction) {}

  @Override
  protected void commit(Integer transaction) {
    store.commit(transaction);
  }

  @Override
  protected void abort(Integer transaction) {
    store.abort(transaction);
  }

  @Override
  protected void recoverAndCommit(Integer transaction) {
    if (commitOnRestore) {
      commit(transaction);
    }
  }
}
