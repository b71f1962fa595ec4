package io.weir.runtime.execution;

import io.weir.runtime.checkpoint.CompletedCheckpoint;
import io.weir.runtime.checkpoint.explain.CheckpointContents;
import io.weir.runtime.checkpoint.explain.CheckpointExplanation;
import io.weir.runtime.jobmaster.JobAttempt;
import io.weir.runtime.monitor.RecoveryView;
import java.io.IOException;
import java.util.List;

/**
 * The recovery view of a job, the same for a local run and a cluster: what the current attempt
 * restored, each pending transaction the recovery step settled with its proof, and an explanation:
 * what {@code weir inspect} prints for the restored checkpoint, then what the restore did.
 */
public final class RecoveryViews {
  private RecoveryViews() {}

  /**
   * @param attempt the current attempt, or null before the first
   * @param transactions what the job's last recovery step proved
   */
  public static RecoveryView of(
      JobAttempt attempt,
      int restarts,
      String lastFailure,
      List<RecoveryView.SinkTransaction> transactions) {
    CompletedCheckpoint restored = attempt == null ? null : attempt.restored();
    return new RecoveryView(
        restored == null ? "nothing" : restored.savepoint() ? "savepoint" : "checkpoint",
        restored == null ? null : restored.checkpointId(),
        restored == null || restored.location() == null ? null : restored.location().toString(),
        attempt == null ? 0 : attempt.number(),
        restarts,
        lastFailure,
        restored == null ? List.of() : transactions,
        explanation(restored, restored == null ? null : attempt.restoredContents(), transactions));
  }

  static String explanation(
      CompletedCheckpoint restored, List<RecoveryView.SinkTransaction> transactions) {
    return explanation(
        restored, restored == null ? null : CheckpointContents.of(restored), transactions);
  }

  private static String explanation(
      CompletedCheckpoint restored,
      CheckpointContents contents,
      List<RecoveryView.SinkTransaction> transactions) {
    if (restored == null) {
      return "A fresh start: sources begin at their configured start positions, and the sinks"
          + " aborted any transaction an earlier run left open.";
    }
    StringBuilder text = new StringBuilder(checkpointText(restored, contents)).append('\n');
    text.append(
            "  restored: sources resumed at the checkpoint's positions; the transactions open at")
        .append(" its barrier were aborted, their records read again\n");
    long committed = count(transactions, "COMMITTED");
    long already = count(transactions, "ALREADY_COMMITTED");
    long aborted = count(transactions, "ABORTED");
    text.append("  pending transactions: ")
        .append(transactions.size())
        .append(" — committed by the restore: ")
        .append(committed)
        .append(", found already committed: ")
        .append(already)
        .append(", aborted: ")
        .append(aborted)
        .append('\n');
    text.append(
        aborted == 0
            ? "  outcome: exactly-once (a replayed commit of a committed transaction is normal)"
            : "  outcome: DATA LOSS — the records of the aborted transactions are not in the output");
    return text.toString();
  }

  /** What {@code weir inspect} prints for the checkpoint, so that both say the same. */
  private static String checkpointText(CompletedCheckpoint restored, CheckpointContents contents) {
    try {
      return CheckpointExplanation.of(restored, contents);
    } catch (IOException e) {
      return (restored.savepoint() ? "savepoint " : "checkpoint ")
          + restored.checkpointId()
          + ": its state file listings cannot be read ("
          + e.getMessage()
          + ")";
    }
  }

  private static long count(List<RecoveryView.SinkTransaction> transactions, String outcome) {
    return transactions.stream().filter(t -> t.outcome().equals(outcome)).count();
  }
}
