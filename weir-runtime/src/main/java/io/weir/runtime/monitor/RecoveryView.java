package io.weir.runtime.monitor;

import java.util.List;

/**
 * What the job's current attempt restored from, and what the job-level recovery step did with the
 * two-phase-commit sinks' transactions recorded there.
 *
 * @param restoredFrom {@code checkpoint}, {@code savepoint} or {@code nothing} (a fresh start)
 * @param checkpointId the restored checkpoint's id, or null
 * @param location the restored checkpoint's directory, or null
 * @param lastFailure the failure that caused the last restart, or null
 * @param transactions each pending transaction of the restored checkpoint, with its proven outcome,
 *     in the order the step settled them
 * @param explanation what the restore did and what it means for the output, for people
 */
public record RecoveryView(
    String restoredFrom,
    Long checkpointId,
    String location,
    int attempt,
    int restarts,
    String lastFailure,
    List<SinkTransaction> transactions,
    String explanation) {

  public RecoveryView {
    transactions = List.copyOf(transactions);
  }

  /**
   * One pending transaction the recovery step settled.
   *
   * @param outcome {@code COMMITTED} (by the recovery), {@code ALREADY_COMMITTED} (before it) or
   *     {@code ABORTED} (its records are lost)
   * @param records the records it holds, or -1 when the sink does not know
   * @param proof what the outcome was proven by
   */
  public record SinkTransaction(
      String sinkUid,
      String sinkName,
      long checkpointId,
      String transaction,
      long records,
      String outcome,
      String proof) {}
}
