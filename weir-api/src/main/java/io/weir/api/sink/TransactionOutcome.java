package io.weir.api.sink;

import java.util.Objects;

/**
 * What became of one transaction that a restored checkpoint held as pending, as the sink proved it
 * on recovery.
 *
 * @param checkpointId the checkpoint whose records the transaction holds
 * @param transaction the transaction, as the sink names it (for Kafka its transactional id)
 * @param recordCount the records it holds, or -1 when the sink does not count them
 * @param outcome committed, or aborted: its records are lost
 */
public record TransactionOutcome(
    long checkpointId, String transaction, long recordCount, Outcome outcome) {

  /** Both outcomes are proven; a sink that cannot prove one throws instead. */
  public enum Outcome {
    COMMITTED,
    ABORTED
  }

  public TransactionOutcome {
    Objects.requireNonNull(transaction, "transaction");
    Objects.requireNonNull(outcome, "outcome");
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
