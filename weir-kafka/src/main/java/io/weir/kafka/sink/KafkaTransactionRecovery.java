package io.weir.kafka.sink;

import io.weir.api.sink.TransactionOutcome;
import io.weir.kafka.transaction.LingeringTransactions;
import io.weir.kafka.transaction.OpenTransaction;
import io.weir.kafka.transaction.RecoveryCommitResult;
import io.weir.kafka.transaction.RecoveryOutcome;
import io.weir.kafka.transaction.TransactionResumer;
import io.weir.kafka.transaction.TransactionalIds;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.SortedMap;
import java.util.TreeMap;
import java.util.function.Predicate;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The recovery of {@link TransactionalKafkaSink}: what settles the transactions of earlier attempts
 * and processes. Resumes and commits a restored pending transaction from its producer id and epoch,
 * aborts what is open under the sink's ids ({@code <prefix>-<subtask>-<n>}, found by a scan of the
 * brokers' open transactions and matched exactly), and proves each pending transaction's outcome
 * from its marker ({@link KafkaTransactionOutcomes}).
 *
 * <p>Called on the job manager's thread by the job-level recovery step, on an instance of its own,
 * before any subtask runs; or on the sink's commit thread for a pending transaction without a
 * producer. It may block on broker round trips; it needs no subtask.
 */
final class KafkaTransactionRecovery {
  private static final Logger LOG = LoggerFactory.getLogger(TransactionalKafkaSink.class);

  private final KafkaSinkConfig<?> config;
  private final TransactionMarkers markers;
  private final KafkaTransactionOutcomes outcomes;
  // What the broker answered to each replayed commit, and whether it held the transaction open
  // before it: kept for the report of the outcomes, never judged here.
  private final Map<KafkaTransaction, RecoveryOutcome> resumeResults = new IdentityHashMap<>();
  private final Map<KafkaTransaction, Optional<Boolean>> openBeforeRecovery =
      new IdentityHashMap<>();
  private boolean reachable;

  KafkaTransactionRecovery(KafkaSinkConfig<?> config) {
    this.config = config;
    this.markers = new TransactionMarkers(config.producerConfig(), config.transactionalIdPrefix());
    this.outcomes = new KafkaTransactionOutcomes(markers, resumeResults, openBeforeRecovery);
  }

  /**
   * Resumes and commits the transaction of a killed process. What the broker answers is kept, not
   * judged: whether the transaction committed is proven afterwards from its marker ({@link
   * #proveOutcomes}). Throws only when the broker cannot be reached, which settles nothing.
   */
  void recoverAndCommit(KafkaTransaction transaction) {
    if (!transaction.isPreCommitted()) {
      return;
    }
    maybeCheckReachable();
    openBeforeRecovery.put(transaction, openOnBroker(transaction));
    RecoveryCommitResult result =
        TransactionResumer.recoverAndCommit(
            config.producerConfig(), transaction.pending(), config.topic());
    LOG.debug("Sink for topic {}: {}", config.topic(), result.describe());
    resumeResults.put(transaction, result.outcome());
  }

  /**
   * Aborts every open transaction under the sink's ids (so nothing of the sink holds the marker
   * topic back), then proves each pending transaction's outcome from its marker.
   */
  List<TransactionOutcome> proveOutcomes(
      SortedMap<Long, List<KafkaTransaction>> pending, List<KafkaTransaction> open) {
    if (!pending.isEmpty() || !open.isEmpty()) {
      maybeCheckReachable();
    }
    abortLingering(id -> true);
    markers.ensureTopic();
    SortedMap<Long, String> markerOffsets = new TreeMap<>();
    pending.values().forEach(list -> list.forEach(t -> addMarker(markerOffsets, t)));
    Set<Long> committed = markers.committedAmong(markerOffsets);
    return outcomes.of(pending, committed);
  }

  /**
   * Once per recovery of a restored job: an unreachable broker fails the job within the start
   * timeout. A job's first fresh start checks the same before it lists what an earlier run left
   * open ({@link #lingeringTransactions}).
   */
  private void maybeCheckReachable() {
    if (!reachable) {
      StartReachability.beforeRestore(config);
      reachable = true;
    }
  }

  private static void addMarker(SortedMap<Long, String> offsets, KafkaTransaction transaction) {
    if (transaction.isMarked()) {
      offsets.put(transaction.markerOffset(), transaction.transactionalId());
    }
  }

  /**
   * A fresh start, while the new subtasks start: aborts the open transactions of the sink's ids
   * that no new subtask takes, those of a subtask index at or above {@code parallelism} or of a
   * pool index at or above the pool's size (left by an earlier run with more of either). Each new
   * subtask's producers abort what is open under its own ids when they are initialised, so this and
   * the subtasks never touch the same id, and neither can fence the other.
   */
  void abortLingeringBesideSubtasks(int parallelism) {
    abortLingering(id -> !takenBySubtasks(id, parallelism));
  }

  /**
   * The transactional ids of this sink that are open on the brokers, once a broker answered within
   * the start timeout.
   */
  List<String> lingeringTransactions() {
    StartReachability.beforeFreshStart(config);
    try (LingeringTransactions lingering = new LingeringTransactions(config.producerConfig())) {
      return lingering.list(sinkIds()).stream().map(OpenTransaction::transactionalId).toList();
    }
  }

  /**
   * Whether {@code transactionalId}, an id of this sink, is one a subtask at this parallelism
   * takes.
   */
  private boolean takenBySubtasks(String transactionalId, int parallelism) {
    Matcher id = sinkIds().matcher(transactionalId);
    return id.matches()
        && isIndexBelow(id.group(1), parallelism)
        && isIndexBelow(id.group(2), config.transactionalIdPoolSize());
  }

  /** Whether {@code digits} is an index below {@code bound} as a subtask writes it in its ids. */
  private static boolean isIndexBelow(String digits, int bound) {
    // Longer than the bound cannot be below it, and cannot overflow a long either.
    return digits.length() <= String.valueOf(bound).length()
        && String.valueOf(Long.parseLong(digits)).equals(digits)
        && Long.parseLong(digits) < bound;
  }

  /** Every id of this sink, of any subtask and pool index, matched exactly. */
  private Pattern sinkIds() {
    return TransactionalIds.of(config.transactionalIdPrefix());
  }

  /** Aborts the open transactions of the ids of this sink that {@code selected} accepts. */
  private void abortLingering(Predicate<String> selected) {
    Pattern ids = sinkIds();
    try (LingeringTransactions lingering = new LingeringTransactions(config.producerConfig())) {
      List<OpenTransaction> aborted =
          lingering.abortWhere(id -> ids.matcher(id).matches() && selected.test(id));
      if (!aborted.isEmpty()) {
        LOG.info(
            "Sink for topic {} aborted {} lingering transaction(s): {}",
            config.topic(),
            aborted.size(),
            aborted.stream().map(OpenTransaction::transactionalId).toList());
      }
    }
  }

  /**
   * Whether the broker holds the transaction open under its producer id: its commit is still to be
   * done (rather than done before the failure, or aborted by the broker's timeout).
   */
  private Optional<Boolean> openOnBroker(KafkaTransaction transaction) {
    try (LingeringTransactions lingering = new LingeringTransactions(config.producerConfig())) {
      return Optional.of(
          lingering.list(transaction.transactionalId()).stream()
              .anyMatch(
                  open ->
                      open.transactionalId().equals(transaction.transactionalId())
                          && open.producerId() == transaction.pending().producerId()));
    } catch (RuntimeException e) {
      // Only the report of the outcome needs it; the commit and its proof go on without.
      LOG.debug("Cannot tell whether {} was open before the recovery", transaction, e);
      return Optional.empty();
    }
  }
}
