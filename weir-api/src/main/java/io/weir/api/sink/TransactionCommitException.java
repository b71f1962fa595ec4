package io.weir.api.sink;

import io.weir.api.annotation.PublicEvolving;

/**
 * A pending transaction could not be committed. The transaction stays pending, so the task fails
 * and the restore from the last completed checkpoint retries the commit; nothing is dropped.
 */
@PublicEvolving
public final class TransactionCommitException extends Exception {
  private static final long serialVersionUID = 1L;

  private final long checkpointId;

  public TransactionCommitException(
      long checkpointId, Object transaction, String reason, Throwable cause) {
    super(
        "Cannot commit transaction "
            + transaction
            + " of checkpoint "
            + checkpointId
            + ": "
            + reason,
        cause);
    this.checkpointId = checkpointId;
  }

  /** The checkpoint the transaction belongs to. */
  public long checkpointId() {
    return checkpointId;
  }
}
