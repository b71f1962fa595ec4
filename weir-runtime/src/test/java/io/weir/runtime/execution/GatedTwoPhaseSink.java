package io.weir.runtime.execution;

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
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * A two-phase-commit sink over an in-memory "external system" whose records and snapshots a test
 * can hold back: each record waits for the record gate, each snapshot for the snapshot gate (both
 * open unless a test closes them), and which declines as many checkpoints as a test asks.
 * Committing a transaction publishes its records under its id, once however often it is committed.
 * Static state because every subtask and attempt works on its own deserialized copy.
 */
final class GatedTwoPhaseSink
    extends TwoPhaseCommitSinkFunction<Long, GatedTwoPhaseSink.Transaction, Void> {
  private static final long serialVersionUID = 1L;

  /** What the external system made visible, by transaction id. */
  static final Map<String, List<Long>> COMMITTED = new ConcurrentHashMap<>();

  /** The id of every checkpoint a subtask began to snapshot, across attempts. */
  static final ConcurrentLinkedQueue<Long> SNAPSHOTS = new ConcurrentLinkedQueue<>();

  /** Checkpoints still to decline before the sink takes part in checkpoints. */
  static final AtomicInteger DECLINES = new AtomicInteger();

  static volatile CountDownLatch recordGate = new CountDownLatch(0);
  static volatile CountDownLatch snapshotGate = new CountDownLatch(0);

  /** An open or pending transaction and its records. */
  record Transaction(String id, ArrayList<Long> records) implements Serializable {}

  static void reset() {
    COMMITTED.clear();
    SNAPSHOTS.clear();
    DECLINES.set(0);
    recordGate = new CountDownLatch(0);
    snapshotGate = new CountDownLatch(0);
  }

  /** Every committed record, as often as it was committed. */
  static List<Long> committedRecords() {
    return COMMITTED.values().stream().flatMap(List::stream).toList();
  }

  @Override
  protected Transaction beginTransaction() {
    return new Transaction(UUID.randomUUID().toString(), new ArrayList<>());
  }

  @Override
  protected void invoke(Transaction transaction, Long value, Context context)
      throws InterruptedException {
    recordGate.await();
    transaction.records().add(value);
  }

  @Override
  protected void preCommit(Transaction transaction) {}

  @Override
  protected void commit(Transaction transaction) {
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
    snapshotGate.await();
    super.snapshotState(context);
  }
}
