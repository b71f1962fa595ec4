package io.weir.kafka.sink;

import io.weir.api.checkpoint.CheckpointDeclinedException;
import java.util.OptionalInt;
import java.util.SortedMap;
import java.util.SortedSet;
import java.util.TreeSet;

/**
 * Which transactional ids of one sink subtask's bounded pool are free, and what a barrier does when
 * none is: an id stays held from its transaction's begin until that transaction is committed, so
 * that the broker never sees an id reused while something under it is still to be committed.
 *
 * <p>Task thread only. Only this subtask's transactions count: restored ones were settled before it
 * began any.
 */
final class TransactionalIdPoolUse {
  private final int poolSize;
  private final String subtaskPrefix;
  // Checkpoints aborted since the last completed one: a pending transaction of one of them waits
  // for
  // a later completed checkpoint, not for a late notification.
  private final SortedSet<Long> abortedCheckpoints = new TreeSet<>();

  TransactionalIdPoolUse(int poolSize, String subtaskPrefix) {
    this.poolSize = poolSize;
    this.subtaskPrefix = subtaskPrefix;
  }

  /**
   * The lowest index of the pool whose id neither a pending transaction nor the open one holds.
   * While commits keep up the sink so alternates between the first two ids, whose producers are
   * made at start; a third is made only when a commit is late.
   *
   * @param open the open transaction, or null
   */
  OptionalInt freeIndex(SortedMap<Long, KafkaTransaction> pending, KafkaTransaction open) {
    boolean[] held = new boolean[poolSize];
    for (KafkaTransaction transaction : pending.values()) {
      held[transaction.poolIndex()] = true;
    }
    if (open != null) {
      held[open.poolIndex()] = true;
    }
    for (int index = 0; index < held.length; index++) {
      if (!held[index]) {
        return OptionalInt.of(index);
      }
    }
    return OptionalInt.empty();
  }

  /** The index a new transaction takes. */
  int indexToBegin(SortedMap<Long, KafkaTransaction> pending, KafkaTransaction open) {
    return freeIndex(pending, open)
        .orElseThrow(
            () ->
                new IllegalStateException(
                    "All "
                        + poolSize
                        + " transactional ids of "
                        + subtaskPrefix
                        + "* are pending: checkpoint notifications are late; no id can be"
                        + " reused before its transaction is committed"));
  }

  /**
   * Declines checkpoint {@code checkpointId} when every id of the pool is held, the oldest pending
   * transaction's because its checkpoint's notification is late: the open transaction takes the
   * records until the notification commits the pending one. When that checkpoint was aborted
   * instead, only a later completed checkpoint could commit it, and declining would block every
   * later one: the task fails, and the restore from the latest completed checkpoint aborts the
   * pending transactions and reads their records again.
   */
  void maybeDecline(
      long checkpointId, SortedMap<Long, KafkaTransaction> pending, KafkaTransaction open) {
    if (freeIndex(pending, open).isPresent()) {
      return;
    }
    long oldest = pending.firstKey();
    String exhausted =
        "all "
            + poolSize
            + " transactional ids of "
            + subtaskPrefix
            + "* are in use: "
            + pending.get(oldest).transactionalId()
            + " still waits for checkpoint "
            + oldest
            + " to be committed";
    if (abortedCheckpoints.contains(oldest)) {
      throw new IllegalStateException(
          exhausted
              + ", which was aborted; restarting from the latest completed checkpoint (raise"
              + " the transactional id pool size if checkpoints often fail)");
    }
    throw new CheckpointDeclinedException(
        exhausted
            + "; checkpoint "
            + checkpointId
            + " declined, records go on into transaction "
            + open.transactionalId());
  }

  /** Remembered so that pool exhaustion can tell a late notification from an aborted checkpoint. */
  void checkpointAborted(long checkpointId) {
    abortedCheckpoints.add(checkpointId);
  }

  void checkpointCompleted(long checkpointId) {
    abortedCheckpoints.headSet(checkpointId + 1).clear();
  }
}
