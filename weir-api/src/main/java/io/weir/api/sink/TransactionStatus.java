package io.weir.api.sink;

import io.weir.api.annotation.PublicEvolving;

/**
 * OPEN -> PRE_COMMITTED -> COMMITTED; OPEN or PRE_COMMITTED -> ABORTED. OPEN: begun, records go
 * into it; PRE_COMMITTED: made durable at a checkpoint's barrier, pending until that checkpoint
 * completes; COMMITTED: visible to readers; ABORTED: discarded. A pre-committed transaction is
 * aborted only when it can no longer be committed (the external system timed it out); otherwise a
 * completed checkpoint, or the restore of one, commits it.
 */
@PublicEvolving
public enum TransactionStatus {
  OPEN,
  PRE_COMMITTED,
  COMMITTED,
  ABORTED;

  public boolean canMoveTo(TransactionStatus next) {
    return switch (this) {
      case OPEN -> next == PRE_COMMITTED || next == ABORTED;
      case PRE_COMMITTED -> next == COMMITTED || next == ABORTED;
      case COMMITTED, ABORTED -> false;
    };
  }
}
