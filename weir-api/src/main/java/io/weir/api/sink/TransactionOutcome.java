package io.weir.api.sink;

import io.weir.api.annotation.PublicEvolving;
import java.util.Objects;

/**
 * What became of one transaction that a restored checkpoint held as pending, as the sink proved it
 * on recovery.
 *
 * @param checkpointId the checkpoint whose records the transaction holds
 * @param transaction the transaction, as the sink names it (for Kafka its transactional id)
 * @param recordCount the records it holds, or -1 when the sink does not count them
 * @param outcome committed (by the recovery, or before it), or aborted: its records are lost
 * @param proof what the outcome was proven by, for people (e.g. a marker record read {@code
 *     read_committed})
 */
@PublicEvolving
public record TransactionOutcome(
    long checkpointId, String transaction, long recordCount, Outcome outcome, String proof) {

  /** Every outcome is proven; a sink that cannot prove one throws instead. */
  public enum Outcome {
    /** The recovery's commit made it visible. */
    COMMITTED,
    /** It was committed before the recovery (its notification's commit ran before the failure). */
    ALREADY_COMMITTED,
    /** It can never be committed: its records are lost. */
    ABORTED
  }

  public TransactionOutcome {
    Objects.requireNonNull(transaction, "transaction");
    Objects.requireNonNull(outcome, "outcome");
    Objects.requireNonNull(proof, "proof");
  }

  /** An outcome proven by the sink's commit returning normally (or failing for good). */
  public TransactionOutcome(
      long checkpointId, String transaction, long recordCount, Outcome outcome) {
    this(
        checkpointId,
        transaction,
        recordCount,
        outcome,
        outcome == Outcome.ABORTED
            ? "the commit failed for good (the transaction timed out)"
            : "the commit returned normally");
  }

  public boolean isDataLoss() {
    return outcome == Outcome.ABORTED;
  }

  /** "1,234 records" or "an unknown number of records". */
  public String describeRecords() {
    return recordCount < 0
        ? "an unknown number of records"
        : String.format("%,d records", recordCount);
  }
}
