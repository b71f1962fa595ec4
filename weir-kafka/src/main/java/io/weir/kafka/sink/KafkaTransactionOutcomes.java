package io.weir.kafka.sink;

import io.weir.api.sink.TransactionOutcome;
import io.weir.kafka.transaction.RecoveryOutcome;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.SortedMap;

/**
 * The proof of what became of each pending transaction a recovery of {@link TransactionalKafkaSink}
 * committed: its marker record, visible to {@code read_committed} readers or not, says committed or
 * aborted; a checkpoint written before markers existed falls back on what the replayed commit
 * answered, and fails loudly when that answer proves nothing. Used by {@link
 * KafkaTransactionRecovery} on its thread.
 */
final class KafkaTransactionOutcomes {
  private final TransactionMarkers markers;
  private final Map<KafkaTransaction, RecoveryOutcome> resumeResults;
  private final Map<KafkaTransaction, Optional<Boolean>> openBeforeRecovery;

  /**
   * @param resumeResults the broker's answer to each replayed commit, filled by the recovery
   * @param openBeforeRecovery whether the broker held each transaction open before its replayed
   *     commit, filled by the recovery
   */
  KafkaTransactionOutcomes(
      TransactionMarkers markers,
      Map<KafkaTransaction, RecoveryOutcome> resumeResults,
      Map<KafkaTransaction, Optional<Boolean>> openBeforeRecovery) {
    this.markers = markers;
    this.resumeResults = resumeResults;
    this.openBeforeRecovery = openBeforeRecovery;
  }

  /**
   * The outcome of each pending transaction, in checkpoint order.
   *
   * @param committedMarkers the offsets of the markers visible to {@code read_committed} readers
   */
  List<TransactionOutcome> of(
      SortedMap<Long, List<KafkaTransaction>> pending, Set<Long> committedMarkers) {
    List<TransactionOutcome> outcomes = new ArrayList<>();
    pending.forEach(
        (checkpointId, transactions) -> {
          for (KafkaTransaction transaction : transactions) {
            outcomes.add(outcomeOf(checkpointId, transaction, committedMarkers));
          }
        });
    return outcomes;
  }

  private TransactionOutcome outcomeOf(
      long checkpointId, KafkaTransaction transaction, Set<Long> committedMarkers) {
    String id = transaction.transactionalId();
    if (!transaction.isPreCommitted()) {
      // Empty: nothing to commit, nothing to lose.
      return new TransactionOutcome(
          checkpointId, id, 0, TransactionOutcome.Outcome.COMMITTED, "it holds no records");
    }
    if (transaction.isMarked()) {
      return markedOutcome(checkpointId, transaction, committedMarkers);
    }
    RecoveryOutcome replayed = resumeResults.get(transaction);
    String answer = "the broker's answer to the replayed commit: " + replayed;
    if (replayed == RecoveryOutcome.COMMITTED) {
      return new TransactionOutcome(
          checkpointId, id, -1, TransactionOutcome.Outcome.COMMITTED, answer);
    }
    if (replayed == RecoveryOutcome.ABORTED_BY_BROKER) {
      return new TransactionOutcome(
          checkpointId, id, -1, TransactionOutcome.Outcome.ABORTED, answer);
    }
    throw new IllegalStateException(
        "cannot prove whether transaction "
            + transaction
            + " of checkpoint "
            + checkpointId
            + " committed: the checkpoint has no marker for it and the broker answered "
            + replayed
            + "; restore from a checkpoint written by this version, or start with --fresh");
  }

  private TransactionOutcome markedOutcome(
      long checkpointId, KafkaTransaction transaction, Set<Long> committedMarkers) {
    String id = transaction.transactionalId();
    String marker =
        "its marker at offset " + transaction.markerOffset() + " of topic " + markers.topic();
    if (!committedMarkers.contains(transaction.markerOffset())) {
      return new TransactionOutcome(
          checkpointId,
          id,
          transaction.recordCount(),
          TransactionOutcome.Outcome.ABORTED,
          marker + " is not visible to read_committed readers");
    }
    Optional<Boolean> openBefore = openBeforeRecovery.getOrDefault(transaction, Optional.empty());
    return new TransactionOutcome(
        checkpointId,
        id,
        transaction.recordCount(),
        openBefore.orElse(true)
            ? TransactionOutcome.Outcome.COMMITTED
            : TransactionOutcome.Outcome.ALREADY_COMMITTED,
        marker
            + " is visible to read_committed readers; before the recovery's commit the broker "
            + openBefore
                .map(open -> open ? "held it open" : "held nothing open for it")
                .orElse("could not say whether it held it open"));
  }
}
