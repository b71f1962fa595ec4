package io.weir.api.sink;

import io.weir.api.annotation.PublicEvolving;
import java.io.Serializable;
import java.util.Objects;

/**
 * One transaction of a two-phase-commit sink subtask as observers (the dashboard, metrics) see it:
 * the open one that takes records now, or a pending one, pre-committed and waiting for its
 * checkpoint's notification.
 *
 * @param checkpointId the checkpoint a pending transaction belongs to; -1 for the open one
 * @param transaction the transaction as the sink names it (for Kafka its transactional id)
 * @param beginMillis wall-clock time the transaction began
 * @param records the records written into it so far, or -1 when the sink does not count them
 */
@PublicEvolving
public record TransactionView(
    Stage stage, long checkpointId, String transaction, long beginMillis, long records)
    implements Serializable {

  /** OPEN (takes records) -> PENDING (pre-committed at a barrier) -> gone once committed. */
  public enum Stage {
    OPEN,
    PENDING
  }

  public TransactionView {
    Objects.requireNonNull(stage, "stage");
    Objects.requireNonNull(transaction, "transaction");
  }
}
