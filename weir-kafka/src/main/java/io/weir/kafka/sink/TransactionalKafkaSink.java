package io.weir.kafka.sink;

import io.weir.api.checkpoint.CheckpointDeclinedException;
import io.weir.api.checkpoint.FunctionSnapshotContext;
import io.weir.api.sink.TransactionOutcome;
import io.weir.api.sink.TwoPhaseCommitOptions;
import io.weir.api.sink.TwoPhaseCommitSinkFunction;
import io.weir.kafka.BesideStart;
import io.weir.kafka.ClientGauges;
import io.weir.kafka.transaction.LingeringTransactions;
import io.weir.kafka.transaction.OpenTransaction;
import io.weir.kafka.transaction.PendingTransaction;
import io.weir.kafka.transaction.RecoveryCommitResult;
import io.weir.kafka.transaction.RecoveryOutcome;
import io.weir.kafka.transaction.TransactionResumer;
import io.weir.kafka.transaction.TransactionalIds;
import io.weir.runtime.startup.StartupPhases;
import java.util.ArrayList;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalInt;
import java.util.Set;
import java.util.SortedMap;
import java.util.SortedSet;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.Future;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.Predicate;
import java.util.function.Supplier;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.producer.Callback;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.RecordMetadata;
import org.apache.kafka.common.KafkaException;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The exactly-once Kafka sink: one Kafka transaction per checkpoint and subtask. {@code preCommit}
 * writes the transaction's marker record ({@link TransactionMarkers}), flushes, and records the
 * producer id, epoch and marker offset; {@code commit} commits with the producer that began the
 * transaction.
 *
 * <p>Recovery is the job's step, before any subtask runs: it resumes and commits the restored
 * pending transactions of all former subtasks from their producer ids and epochs, aborts every open
 * transaction under the sink's ids ({@code <prefix>-<subtask>-<n>}, matched exactly), so {@code
 * read_committed} readers never wait for the broker's transaction timeout, and then reads the
 * markers to prove which pending transactions committed.
 *
 * <p><b>Why ids of the new subtask index are safe.</b> A new subtask takes the ids of its own index
 * rather than ids recorded in the state it restores, and that is safe by order alone: (1) every
 * pending transaction the restored checkpoint records, of every former subtask whatever the old
 * parallelism, carries its own transactional id, producer id and epoch, and the job's recovery step
 * commits it from those before any subtask of the new attempt runs; (2) the step then aborts every
 * open transaction under {@code <prefix>-<subtask>-<n>} for any subtask, so no id a new subtask
 * takes still holds anything to commit; (3) only then does a subtask initialise its ids, which
 * fences every older producer of them. A recovery cut short (a crash, or a resubmission with
 * another parallelism from the same checkpoint) is simply run again: commits replay, the abort
 * finds what is still open, and the markers, not the broker's answers, prove each outcome. This
 * order needs no generation in the id nor a recorded id set; what those would add is below. A fresh
 * start has nothing to commit, so nothing waits for it: the step aborts, beside the subtasks'
 * start, only what is open under ids no new subtask takes ({@link #abortLingeringBesideSubtasks}),
 * and each new subtask's fencing of its own ids aborts what is open under them.
 *
 * <p>What would break it, and what guards against each: a subtask that begins a transaction before
 * the recovery step ended (the job driver deploys no task before it); two jobs given the same
 * prefix (nothing guards that: each aborts the other's open transactions; a prefix that merely
 * starts with another is safe, ids are matched exactly); a transaction older than {@code
 * transaction.timeout.ms} (checked against the broker at start, and an abort it causes is proven
 * loss, never silent); and a zombie that initialises one of these ids after the new attempt did. A
 * running subtask cannot: it fences its ids once, when it starts ({@link #initializeUserContext});
 * a producer it makes later, for an id it has not used yet, can abort only what a zombie began
 * under that id since; and it never takes a used id over again, since a producer discarded after a
 * commit error leaves its transaction pending, which keeps that id out of use until the task ends,
 * and it aborts only when it ends. So a zombie's running tasks can only be fenced, never fence. The
 * one path left is a zombie task that starts late: a task manager frozen with a deployment of the
 * old attempt still queued, woken after the new attempt initialised its ids, whose tasks'
 * initialisation would abort what the new attempt has open under those ids. The task manager
 * cancels its tasks once it finds its job manager silent and refuses a deposed leader's messages,
 * and even then nothing is lost silently: a pre-committed transaction aborted that way fails the
 * next recovery as DATA LOSS, proven by its marker. Ids scoped to the attempt that began them (the
 * job manager's attempt number in the id, recorded with each pending transaction, lingering abort
 * over every attempt by exact pattern) would close that path too, at the cost of a new set of ids
 * in the broker for every restart.
 */
final class TransactionalKafkaSink<T>
    extends TwoPhaseCommitSinkFunction<T, KafkaTransaction, Void> {
  private static final Logger LOG = LoggerFactory.getLogger(TransactionalKafkaSink.class);

  private final KafkaSinkConfig<T> config;
  private transient TransactionalProducers producers;
  private transient AtomicReference<Exception> sendError;
  // One for every record: a lambda per send would be an allocation per record.
  private transient Callback sendCallback;
  private transient TransactionMarkers markers;
  private transient boolean committedRecords;
  private transient Map<KafkaTransaction, RecoveryOutcome> resumeResults;
  // Whether the broker still held each restored pending transaction open before its recovery.
  private transient Map<KafkaTransaction, Optional<Boolean>> openBeforeRecovery;
  private transient SortedSet<Long> abortedCheckpoints;
  private transient boolean reachable;

  KafkaSinkConfig<T> config() {
    return config;
  }

  TransactionalKafkaSink(KafkaSinkConfig<T> config) {
    super(
        TwoPhaseCommitOptions.builder()
            .transactionTimeout(config.transactionTimeout(), 0.5)
            // A commit is a broker round trip: records go on into the next transaction meanwhile.
            .commitInBackground()
            .build());
    this.config = config;
  }

  private TransactionalProducers producers() {
    if (producers == null) {
      producers = new TransactionalProducers(config, getRuntimeContext().subtaskIndex());
      ClientGauges.addProducers(getRuntimeContext().metricGroup(), producers::forGauges);
      sendError = new AtomicReference<>();
      sendCallback =
          (metadata, error) -> {
            if (error != null) {
              sendError.compareAndSet(null, error);
            }
          };
    }
    return producers;
  }

  /**
   * When every transactional id of the pool is pending or open, first waits for the commits in
   * flight: one of them may free an id, and waiting for a commit that is running costs less than
   * declining the checkpoint.
   */
  @Override
  public void snapshotState(FunctionSnapshotContext context) throws Exception {
    if (freeIndex().isEmpty()) {
      awaitCommitsInFlight();
    }
    super.snapshotState(context);
  }

  /**
   * The lowest index of the pool whose id neither a pending transaction nor the open one holds.
   * While commits keep up the sink so alternates between the first two ids, whose producers are
   * made at start; a third is made only when a commit is late.
   */
  private OptionalInt freeIndex() {
    // Only this task's transactions: restored ones were settled before it began any.
    boolean[] held = new boolean[config.transactionalIdPoolSize()];
    for (KafkaTransaction pending : pendingTransactions().values()) {
      held[pending.poolIndex()] = true;
    }
    if (currentTransaction() != null) {
      held[currentTransaction().poolIndex()] = true;
    }
    for (int index = 0; index < held.length; index++) {
      if (!held[index]) {
        return OptionalInt.of(index);
      }
    }
    return OptionalInt.empty();
  }

  /**
   * Declines the checkpoint when every transactional id of the pool is held, the oldest pending
   * transaction's because its checkpoint's notification is late: the open transaction takes the
   * records until the notification commits the pending one. When that checkpoint was aborted
   * instead, only a later completed checkpoint could commit it, and declining would block every
   * later one: the task fails, and the restore from the latest completed checkpoint aborts the
   * pending transactions and reads their records again.
   */
  @Override
  protected void maybeDeclineCheckpoint(long checkpointId) {
    if (freeIndex().isPresent()) {
      return;
    }
    long oldest = pendingTransactions().firstKey();
    String exhausted =
        "all "
            + config.transactionalIdPoolSize()
            + " transactional ids of "
            + producers().subtaskPrefix()
            + "* are in use: "
            + pendingTransactions().get(oldest).transactionalId()
            + " still waits for checkpoint "
            + oldest
            + " to be committed";
    if (abortedCheckpoints().contains(oldest)) {
      throw new IllegalStateException(
          exhausted
              + ", which was aborted; restarting from the latest completed checkpoint (raise"
              + " the transactional id pool size if checkpoints often fail)");
    }
    throw new CheckpointDeclinedException(
        exhausted
            + "; checkpoint "
            + checkpointId
            + " declined, records go on into transaction "
            + currentTransaction().transactionalId());
  }

  /** Remembered so that pool exhaustion can tell a late notification from an aborted checkpoint. */
  @Override
  public void notifyCheckpointAborted(long checkpointId) {
    super.notifyCheckpointAborted(checkpointId);
    abortedCheckpoints().add(checkpointId);
  }

  @Override
  public void notifyCheckpointComplete(long checkpointId) throws Exception {
    super.notifyCheckpointComplete(checkpointId);
    abortedCheckpoints().headSet(checkpointId + 1).clear();
  }

  private SortedSet<Long> abortedCheckpoints() {
    if (abortedCheckpoints == null) {
      abortedCheckpoints = new TreeSet<>();
    }
    return abortedCheckpoints;
  }

  @Override
  protected KafkaTransaction beginTransaction() {
    int index =
        freeIndex()
            .orElseThrow(
                () ->
                    new IllegalStateException(
                        "All "
                            + config.transactionalIdPoolSize()
                            + " transactional ids of "
                            + producers().subtaskPrefix()
                            + "* are pending: checkpoint notifications are late; no id can be"
                            + " reused before its transaction is committed"));
    KafkaProducer<byte[], byte[]> producer = producers().producer(index);
    producer.beginTransaction();
    return new KafkaTransaction(producers().transactionalId(index), index, producer);
  }

  @Override
  protected String describeTransaction(KafkaTransaction transaction) {
    return transaction.transactionalId();
  }

  @Override
  protected long recordCountOf(KafkaTransaction transaction) {
    return transaction.recordCount();
  }

  @Override
  protected void invoke(KafkaTransaction transaction, T value, Context context) throws Exception {
    throwSendError();
    transaction.recordSent();
    transaction.producer().send(config.producerRecordOf(value), sendCallback);
  }

  @Override
  protected void preCommit(KafkaTransaction transaction) throws Exception {
    // An empty transaction is not resumable (the broker never saw it begin) and needs no commit
    // after a restore, so the checkpoint keeps only its transactional id.
    if (!transaction.hasRecords()) {
      transaction.producer().flush();
      throwSendError();
      return;
    }
    PendingTransaction pending = TransactionResumer.pendingTransactionOf(transaction.producer());
    Future<RecordMetadata> marker =
        transaction
            .producer()
            .send(
                markers()
                    .marker(
                        pending.transactionalId(),
                        pending.producerId(),
                        pending.epoch(),
                        transaction.recordCount()));
    transaction.producer().flush();
    throwSendError();
    transaction.preCommitted(pending, marker.get().offset());
  }

  @Override
  protected void commit(KafkaTransaction transaction) throws Exception {
    KafkaProducer<byte[], byte[]> producer = transaction.producer();
    if (producer == null) {
      recoverAndCommit(transaction);
      return;
    }
    try {
      producer.commitTransaction();
      if (!committedRecords && transaction.hasRecords()) {
        committedRecords = true;
        StartupPhases.reached(
            "sink " + producers().subtaskPrefix() + "* committed its first records");
      }
    } catch (KafkaException e) {
      producers().discard(transaction.poolIndex());
      throw e;
    }
  }

  /**
   * Resumes and commits the transaction of a killed process. What the broker answers is kept, not
   * judged: whether the transaction committed is proven afterwards from its marker ({@link
   * #proveOutcomes}). Throws only when the broker cannot be reached, which settles nothing.
   */
  @Override
  protected void recoverAndCommit(KafkaTransaction transaction) {
    if (!transaction.isPreCommitted()) {
      return;
    }
    maybeCheckReachable();
    openBeforeRecovery().put(transaction, openOnBroker(transaction));
    RecoveryCommitResult result =
        TransactionResumer.recoverAndCommit(
            config.producerConfig(), transaction.pending(), config.topic());
    LOG.debug("Sink for topic {}: {}", config.topic(), result.describe());
    resumeResults().put(transaction, result.outcome());
  }

  /**
   * Aborts every open transaction under the sink's ids (so nothing of the sink holds the marker
   * topic back), then proves each pending transaction's outcome from its marker; a checkpoint
   * written before markers existed falls back on what the replayed commit answered, and fails
   * loudly when that answer proves nothing.
   */
  @Override
  protected List<TransactionOutcome> proveOutcomes(
      SortedMap<Long, List<KafkaTransaction>> pending, List<KafkaTransaction> open) {
    if (!pending.isEmpty() || !open.isEmpty()) {
      maybeCheckReachable();
    }
    abortLingering();
    markers().ensureTopic();
    SortedMap<Long, String> markerOffsets = new TreeMap<>();
    pending.values().forEach(list -> list.forEach(t -> addMarker(markerOffsets, t)));
    Set<Long> committed = markers().committedAmong(markerOffsets);
    List<TransactionOutcome> outcomes = new ArrayList<>();
    pending.forEach(
        (checkpointId, transactions) -> {
          for (KafkaTransaction transaction : transactions) {
            outcomes.add(outcomeOf(checkpointId, transaction, committed));
          }
        });
    return outcomes;
  }

  /**
   * Once per recovery of a restored job: an unreachable broker fails the job within the start
   * timeout. A fresh start skips it, so that its source reports the unreachable broker.
   */
  private void maybeCheckReachable() {
    if (!reachable) {
      RestoreReachability.check(config);
      reachable = true;
    }
  }

  private static void addMarker(SortedMap<Long, String> offsets, KafkaTransaction transaction) {
    if (transaction.isMarked()) {
      offsets.put(transaction.markerOffset(), transaction.transactionalId());
    }
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
      String marker =
          "its marker at offset " + transaction.markerOffset() + " of topic " + markers().topic();
      if (!committedMarkers.contains(transaction.markerOffset())) {
        return new TransactionOutcome(
            checkpointId,
            id,
            transaction.recordCount(),
            TransactionOutcome.Outcome.ABORTED,
            marker + " is not visible to read_committed readers");
      }
      Optional<Boolean> openBefore =
          openBeforeRecovery().getOrDefault(transaction, Optional.empty());
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
    RecoveryOutcome replayed = resumeResults().get(transaction);
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

  /**
   * A fresh start, while the new subtasks start: aborts the open transactions of the sink's ids
   * that no new subtask takes, those of a subtask index at or above {@code parallelism} or of a
   * pool index at or above the pool's size (left by an earlier run with more of either). Each new
   * subtask's producers abort what is open under its own ids when they are initialised ({@link
   * #initializeUserContext}), which also creates the marker topic; so this and the subtasks never
   * touch the same id, and neither can fence the other.
   */
  @Override
  public void abortLingeringBesideSubtasks(int parallelism) {
    abortLingering(id -> !takenBySubtasks(id, parallelism));
  }

  @Override
  public boolean abortsLingeringBesideSubtasks() {
    return true;
  }

  /** The transactional ids of this sink that are open on the brokers. */
  @Override
  public List<String> lingeringTransactions() {
    try (LingeringTransactions lingering = new LingeringTransactions(config.producerConfig())) {
      return lingering.list(sinkIds()).stream().map(OpenTransaction::transactionalId).toList();
    }
  }

  /** Its transactional ids; its marker topic is made from the prefix alone too. */
  @Override
  public Optional<String> transactionIdSpace(
      String jobName, String operatorName, String operatorUid) {
    return Optional.of(TransactionalIds.describe(config.transactionalIdPrefix()));
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

  /** Aborts the open transactions of every id of this sink, of any subtask and pool index. */
  private void abortLingering() {
    abortLingering(id -> true);
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

  private TransactionMarkers markers() {
    if (markers == null) {
      markers = new TransactionMarkers(config.producerConfig(), config.transactionalIdPrefix());
    }
    return markers;
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

  private Map<KafkaTransaction, Optional<Boolean>> openBeforeRecovery() {
    if (openBeforeRecovery == null) {
      openBeforeRecovery = new IdentityHashMap<>();
    }
    return openBeforeRecovery;
  }

  private Map<KafkaTransaction, RecoveryOutcome> resumeResults() {
    if (resumeResults == null) {
      resumeResults = new IdentityHashMap<>();
    }
    return resumeResults;
  }

  @Override
  protected void abort(KafkaTransaction transaction) {
    KafkaProducer<byte[], byte[]> producer = transaction.producer();
    if (producer == null) {
      return;
    }
    try {
      producer.abortTransaction();
    } catch (KafkaException e) {
      producers().discard(transaction.poolIndex());
    }
  }

  /** The open transaction of the killed process is aborted with the other lingering ones. */
  @Override
  protected void recoverAndAbort(KafkaTransaction transaction) {}

  /**
   * Runs before the first new transaction, once every restored transaction of the sink is settled
   * (by the job's recovery step, or for a harness by this function's own): from here nothing under
   * the pool's ids is left to commit. Initialises the producers of the first two ids while one
   * admin client, beside them, checks the transaction timeout against the broker and creates the
   * marker topic (both awaited), and then fences the pool's other ids (not awaited: the first
   * transactions do not use them, and a transaction that needs one of them waits for the fence).
   */
  @Override
  protected Optional<Void> initializeUserContext() {
    CompletableFuture<Optional<String>> startChecks = startChecksThenFence();
    try {
      StartupPhases.reached("sink " + producers().subtaskPrefix() + "* initialises its producers");
      producers().initialise();
      StartupPhases.reached("sink " + producers().subtaskPrefix() + "* initialised its producers");
    } catch (RuntimeException e) {
      // A timeout above the broker's maximum fails the producers too; its message says why.
      BesideStart.await(startChecks);
      throw e;
    }
    BesideStart.await(startChecks).ifPresent(LOG::warn);
    return Optional.empty();
  }

  /**
   * The start checks' outcome: a warning, if any, or their failure. A failed fence is only logged:
   * what it leaves open under an id holds readers back until the id's first use here fences it, or
   * the broker's timeout aborts it; nothing of this job's output depends on it.
   */
  private CompletableFuture<Optional<String>> startChecksThenFence() {
    TransactionMarkers markers = markers();
    CompletableFuture<Optional<String>> checked = new CompletableFuture<>();
    CompletableFuture<Void> fenced = new CompletableFuture<>();
    producers().useTheOthersAfter(fenced);
    inBackground(
        "start checks",
        () -> {
          // One admin client for all three: each client's start costs the cores the job's start
          // needs.
          try (Admin admin = markers.newAdmin()) {
            Optional<String> warning = TransactionTimeoutCheck.check(config, admin);
            markers.ensureTopic(admin);
            checked.complete(warning);
            producers().fenceTheOthers(admin);
          } catch (RuntimeException e) {
            if (!checked.completeExceptionally(e)) {
              LOG.warn("{}", e.getMessage());
            }
          } finally {
            fenced.complete(null);
          }
          return null;
        });
    return checked;
  }

  private <R> CompletableFuture<R> inBackground(String what, Supplier<R> work) {
    return BesideStart.run(what + " " + getRuntimeContext().operatorName(), work);
  }

  private void throwSendError() throws Exception {
    // A plain read on every record; the atomic exchange only once an error arrived.
    if (sendError.get() == null) {
      return;
    }
    Exception error = sendError.getAndSet(null);
    if (error != null) {
      throw new IllegalStateException(
          "Sending to topic '" + config.topic() + "' failed: " + error.getMessage(), error);
    }
  }

  @Override
  public void close() throws Exception {
    try {
      super.close();
    } finally {
      if (producers != null) {
        producers.close();
      }
    }
  }
}
