package io.weir.testing;

/**
 * Where in the two-phase-commit protocol a {@link SinkCrashMatrix} crashes the sink (drops it
 * without closing, as {@code kill -9}), in the round of records the cell names. After the crash a
 * new instance restores from the latest completed checkpoint, and the records after that checkpoint
 * are written again, as a source rewound to the checkpoint's offsets would send them.
 */
public enum SinkCrashPoint {
  /** Half the round's records written into the open transaction; no barrier yet. */
  WHILE_WRITING,
  /**
   * At the barrier: pre-committed and the next transaction begun, but the checkpoint never
   * completed.
   */
  AFTER_PRE_COMMIT,
  /** The checkpoint completed, the notification never arrived: the restore must commit. */
  BEFORE_COMMIT,
  /** The notification committed the transaction; the restore commits it again (idempotence). */
  AFTER_COMMIT,
  /**
   * As {@link #BEFORE_COMMIT}, then a second crash right after the restore committed and aborted:
   * the next restore from the same checkpoint commits and aborts the same transactions again.
   */
  DURING_RECOVERY,
  /**
   * The notification of this round's checkpoint is lost; the next round's checkpoint completes and
   * the crash comes before its notification, so two transactions are pending at the restore.
   */
  AFTER_LOST_NOTIFICATION,
  /**
   * The notification of this round's checkpoint is lost; the next round's notification commits the
   * first of the two pending transactions and the crash comes before the second is committed.
   */
  BETWEEN_COMMITS;

  /** Whether the crash can happen in round {@code round} of {@code rounds}. */
  boolean appliesTo(int round, int rounds) {
    return (this != AFTER_LOST_NOTIFICATION && this != BETWEEN_COMMITS) || round + 1 < rounds;
  }
}
