package io.weir.kafka.transaction;

import java.util.Optional;
import org.apache.kafka.common.KafkaException;

/**
 * The outcome of committing one pending transaction on recovery, with the broker's error when it
 * was not {@link RecoveryOutcome#COMMITTED}.
 */
public record RecoveryCommitResult(
    PendingTransaction transaction, RecoveryOutcome outcome, Optional<KafkaException> error) {

  /** One line for logs and reports, naming the transaction and what happened to it. */
  public String describe() {
    return switch (outcome) {
      case COMMITTED -> "transaction " + transaction + " is committed";
      case ABORTED_BY_BROKER ->
          "DATA LOSS: the broker aborted transaction "
              + transaction
              + " before recovery could commit it (it outlived transaction.timeout.ms)";
      case FENCED ->
          "outcome unknown: transaction "
              + transaction
              + " was fenced by a newer epoch of the same transactional id";
      case UNKNOWN_PRODUCER_ID ->
          "outcome unknown: the broker does not know the producer id of transaction " + transaction;
    };
  }
}
