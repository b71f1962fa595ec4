package io.weir.runtime.checkpoint;

import io.weir.api.checkpoint.CheckpointDeclinedException;
import io.weir.api.checkpoint.FunctionSnapshotContext;
import io.weir.api.sink.TwoPhaseCommitSinkFunction;
import java.io.Serializable;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * A two-phase-commit sink over an in-memory "external system": a transaction carries its records,
 * and committing it publishes them under the transaction's id, once however often it is committed.
 * Logs each notification it gets and how many pending transactions it made due. Static state
 * because every subtask and attempt works on its own serialized copy.
 */
final class RecordingTwoPhaseSink
    extends TwoPhaseCommitSinkFunction<Long, RecordingTwoPhaseSink.Transaction, Void> {
  private static final long serialVersionUID = 1L;

  /** What the external system made visible, by transaction id. */
  static final Map<String, List<Long>> COMMITTED = new ConcurrentHashMap<>();

  /** Per notification: {checkpoint id, pending transactions it commits}. */
  static final ConcurrentLinkedQueue<long[]> NOTIFICATIONS = new ConcurrentLinkedQueue<>();

  /** The id of every checkpoint this sink snapshot, across attempts. */
  static final ConcurrentLinkedQueue<Long> SNAPSHOTS = new ConcurrentLinkedQueue<>();

  /** Commits still to fail before commits succeed. */
  static final AtomicInteger COMMIT_FAILURES = new AtomicInteger();

  /** Checkpoints still to decline before the sink takes part in checkpoints. */
  static final AtomicInteger DECLINES = new AtomicInteger();

  /** Failures the listing of an earlier run's open transactions still throws, one a call. */
  static final ConcurrentLinkedQueue<RuntimeException> LISTING_FAILURES =
      new ConcurrentLinkedQueue<>();

  /** An open or pending transaction and its records. */
  record Transaction(String id, ArrayList<Long> records) implements Serializable {}

  static void reset() {
    COMMITTED.clear();
    NOTIFICATIONS.clear();
    SNAPSHOTS.clear();
    COMMIT_FAILURES.set(0);
    DECLINES.set(0);
    LISTING_FAILURES.clear();
  }

  /** Every committed record, as often as it was committed. */
  static List<Long> committedRecords() {
    return COMMITTED.values().stream().flatMap(List::stream).toList();
  }

  @Override
  public List<String> lingeringTransactions() {
    RuntimeException failure = LISTING_FAILURES.poll();
    if (failure != null) {
      throw failure;
    }
    return List.of();
  }

  @Override
  protected Transaction beginTransaction() {
    return new Transaction(UUID.randomUUID().toString(), new ArrayList<>());
  }

  @Override
  protected void invoke(Transaction transaction, Long value, Context context) {
    transaction.records().add(value);
  }

  @Override
  protected void preCommit(Transaction transaction) {}

  @Override
  protected void commit(Transaction transaction) {
    if (COMMIT_FAILURES.getAndUpdate(left -> Math.max(0, left - 1)) > 0) {
      throw new IllegalStateException("injected commit failure of " + transaction.id());
    }
    COMMITTED.putIfAbsent(transaction.id(), List.copyOf(transaction.records()));
  }

  @Override
  protected void abort(Transaction transaction) {}

  @Override
  protected void maybeDeclineCheckpoint(long checkpointId) {
    if (DECLINES.getAndUpdate(left -> Math.max(0, left - 1)) > 0) {
      throw new CheckpointDeclinedException("declining checkpoint " + checkpointId);
    }
  }

  @Override
  public void snapshotState(FunctionSnapshotContext context) throws Exception {
    SNAPSHOTS.add(context.checkpointId());
    super.snapshotState(context);
  }

  @Override
  public void notifyCheckpointComplete(long checkpointId) throws Exception {
    NOTIFICATIONS.add(
        new long[] {checkpointId, pendingTransactions().headMap(checkpointId + 1).size()});
    super.notifyCheckpointComplete(checkpointId);
  }
}
