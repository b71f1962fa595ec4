package io.weir.runtime.checkpoint;

import io.weir.api.checkpoint.FunctionSnapshotContext;
import io.weir.api.sink.TwoPhaseCommitOptions;
import io.weir.api.sink.TwoPhaseCommitSinkFunction;
import java.io.Serializable;

/**
 * A sink that commits in the background and takes its time over each commit, logging to {@link
 * NotificationLog} as {@code name} which checkpoint's transaction a commit finished.
 */
final class SlowCommitSink<T> extends TwoPhaseCommitSinkFunction<T, SlowCommitSink.Txn, Void> {
  private static final long serialVersionUID = 1L;
  private static final long COMMIT_MILLIS = 30;

  /** A transaction and the checkpoint it was pre-committed at. */
  static final class Txn implements Serializable {
    private static final long serialVersionUID = 1L;
    long checkpointId = -1;
  }

  private final String name;
  private transient long snapshotting;

  SlowCommitSink(String name) {
    super(TwoPhaseCommitOptions.builder().commitInBackground().build());
    this.name = name;
  }

  @Override
  public void snapshotState(FunctionSnapshotContext context) throws Exception {
    snapshotting = context.checkpointId();
    super.snapshotState(context);
  }

  @Override
  protected Txn beginTransaction() {
    return new Txn();
  }

  @Override
  protected void invoke(Txn transaction, T value, Context context) {}

  @Override
  protected void preCommit(Txn transaction) {
    transaction.checkpointId = snapshotting;
  }

  @Override
  protected void commit(Txn transaction) throws InterruptedException {
    Thread.sleep(COMMIT_MILLIS); // a round trip to the external system
    NotificationLog.record(name, transaction.checkpointId);
  }

  @Override
  protected void abort(Txn transaction) {}
}
