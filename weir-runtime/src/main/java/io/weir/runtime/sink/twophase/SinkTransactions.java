package io.weir.runtime.sink.twophase;

import io.weir.api.sink.TransactionHolder;
import io.weir.api.sink.TransactionStatus;
import io.weir.api.sink.TransactionView;
import io.weir.api.sink.TwoPhaseCommitHooks;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.SortedMap;
import java.util.TreeMap;

/**
 * The transactions of one two-phase-commit sink subtask: the open one that takes records, the
 * pre-committed ones waiting for their checkpoint by checkpoint id, and what observers see of them.
 *
 * <p>Changed on the task thread only; {@link #views} may be read from any thread, and sees the
 * transactions as of the last {@link #publish} (at begin, barrier, notification and close: the
 * checkpoint rate, never per record).
 */
final class SinkTransactions<TXN> {
  private record ObservedTransaction<TXN>(long checkpointId, TransactionHolder<TXN> holder) {}

  private final TwoPhaseCommitHooks<?, TXN, ?> sink;
  private final SortedMap<Long, TransactionHolder<TXN>> pending = new TreeMap<>();
  // Null before the first transaction began and after close.
  private TransactionHolder<TXN> open;
  private volatile List<ObservedTransaction<TXN>> observed = List.of();

  SinkTransactions(TwoPhaseCommitHooks<?, TXN, ?> sink) {
    this.sink = sink;
  }

  /** The open transaction, or null before the first began and after close. */
  TransactionHolder<TXN> open() {
    return open;
  }

  /** The pending transactions by checkpoint id; the live map, changed by the committers. */
  SortedMap<Long, TransactionHolder<TXN>> pending() {
    return pending;
  }

  /** The pending transactions' handles by checkpoint id, as a copy for the sink. */
  SortedMap<Long, TXN> pendingHandles() {
    SortedMap<Long, TXN> handles = new TreeMap<>();
    pending.forEach((id, holder) -> handles.put(id, holder.handle()));
    return Collections.unmodifiableSortedMap(handles);
  }

  /** Makes {@code first} the open transaction. */
  void begin(TransactionHolder<TXN> first) {
    open = first;
  }

  /**
   * The open transaction was pre-committed for {@code checkpointId}: it becomes pending and {@code
   * next} the open one.
   */
  void preCommitted(long checkpointId, TransactionHolder<TXN> next) {
    pending.put(checkpointId, open.moveTo(TransactionStatus.PRE_COMMITTED));
    open = next;
  }

  /** Fails unless a transaction pre-committed for {@code checkpointId} would come last. */
  void checkIsAfterPending(long checkpointId) {
    if (!pending.isEmpty() && pending.lastKey() >= checkpointId) {
      throw new IllegalStateException(
          "Checkpoint " + checkpointId + " is not after pending checkpoint " + pending.lastKey());
    }
  }

  /**
   * A commit of the transaction of {@code checkpointId} returned, leaving it in {@code status}: it
   * is no longer pending. Returns whether it was.
   */
  boolean settled(long checkpointId, TransactionStatus status) {
    TransactionHolder<TXN> holder = pending.remove(checkpointId);
    if (holder == null) {
      return false;
    }
    holder.moveTo(status);
    return true;
  }

  /** Takes the open transaction away, moved to ABORTED, for its abort; null when none is open. */
  TransactionHolder<TXN> takeOpenForAbort() {
    TransactionHolder<TXN> taken = open;
    open = null;
    observed = List.of();
    return taken == null ? null : taken.moveTo(TransactionStatus.ABORTED);
  }

  /** Makes the current transactions what observers see. */
  void publish() {
    List<ObservedTransaction<TXN>> next = new ArrayList<>();
    pending.forEach(
        (checkpointId, holder) -> next.add(new ObservedTransaction<>(checkpointId, holder)));
    if (open != null) {
      next.add(new ObservedTransaction<>(-1, open));
    }
    observed = List.copyOf(next);
  }

  /** The open transaction and the pending ones, in checkpoint order. Any thread, never blocks. */
  List<TransactionView> views() {
    List<ObservedTransaction<TXN>> now = observed;
    List<TransactionView> views = new ArrayList<>(now.size());
    for (ObservedTransaction<TXN> transaction : now) {
      TXN handle = transaction.holder().handle();
      views.add(
          new TransactionView(
              transaction.checkpointId() < 0
                  ? TransactionView.Stage.OPEN
                  : TransactionView.Stage.PENDING,
              transaction.checkpointId(),
              sink.describeTransaction(handle),
              transaction.holder().beginTimeMillis(),
              sink.recordCountOf(handle)));
    }
    return views;
  }
}
