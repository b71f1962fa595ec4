package io.weir.kafka.sink;

import io.weir.api.checkpoint.FunctionSnapshotContext;
import io.weir.api.checkpoint.LastCommitListener;
import io.weir.api.sink.TransactionOutcome;
import io.weir.api.sink.TwoPhaseCommitOptions;
import io.weir.api.sink.TwoPhaseCommitSinkFunction;
import io.weir.kafka.transaction.TransactionalIds;
import java.util.List;
import java.util.Optional;
import java.util.SortedMap;

/**
 * The exactly-once Kafka sink: one Kafka transaction per checkpoint and subtask, as the assembly of
 * three parts. The writer ({@link KafkaTransactionWriter}) begins a transaction under an id of the
 * subtask's pool ({@link TransactionalIdPoolUse}), sends the records into it and pre-commits it:
 * writes its marker record ({@link TransactionMarkers}), flushes, and records the producer id,
 * epoch and marker offset. The committer ({@link KafkaTransactionCommitter}) commits with the
 * producer that began the transaction, and when the job finishes or stops with a savepoint, waits
 * after its last commit until {@code read_committed} readers can read it ({@link
 * CommittedVisibility}). The recovery ({@link KafkaTransactionRecovery}) resumes, aborts and proves
 * the transactions of earlier attempts.
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
final class TransactionalKafkaSink<T> extends TwoPhaseCommitSinkFunction<T, KafkaTransaction, Void>
    implements LastCommitListener {
  private final KafkaSinkConfig<T> config;
  // The parts of a subtask, made when it starts (initializeUserContext).
  private transient KafkaTransactionWriter<T> writer;
  private transient KafkaTransactionCommitter committer;
  private transient TransactionalIdPoolUse pool;
  // Also on the job manager's instance, which has no subtask.
  private transient KafkaTransactionRecovery recovery;

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

  private KafkaTransactionWriter<T> writer() {
    if (writer == null) {
      writer = new KafkaTransactionWriter<>(config, getRuntimeContext());
      committer =
          new KafkaTransactionCommitter(
              writer.producers(),
              recovery(),
              new CommittedVisibility(
                  getRuntimeContext().operatorName(),
                  config.topic(),
                  writer.markers()::newAdmin,
                  config.readableAtEndTimeout()));
      pool =
          new TransactionalIdPoolUse(
              config.transactionalIdPoolSize(), writer.producers().subtaskPrefix());
    }
    return writer;
  }

  private KafkaTransactionRecovery recovery() {
    if (recovery == null) {
      recovery = new KafkaTransactionRecovery(config);
    }
    return recovery;
  }

  // ---- the writer ------------------------------------------------------------------------

  /**
   * Runs before the first new transaction, once every restored transaction of the sink is settled
   * (by the job's recovery step, or for a harness by this function's own): starts the writer.
   */
  @Override
  protected Optional<Void> initializeUserContext() {
    writer().start();
    return Optional.empty();
  }

  @Override
  protected KafkaTransaction beginTransaction() {
    return writer().begin(pool.indexToBegin(pendingTransactions(), currentTransaction()));
  }

  @Override
  protected void invoke(KafkaTransaction transaction, T value, Context context) throws Exception {
    writer.write(transaction, value);
  }

  @Override
  protected void preCommit(KafkaTransaction transaction) throws Exception {
    writer.preCommit(transaction);
  }

  @Override
  protected void abort(KafkaTransaction transaction) {
    writer().abort(transaction);
  }

  @Override
  protected String describeTransaction(KafkaTransaction transaction) {
    return transaction.transactionalId();
  }

  @Override
  protected long recordCountOf(KafkaTransaction transaction) {
    return transaction.recordCount();
  }

  /**
   * When every transactional id of the pool is pending or open, first waits for the commits in
   * flight: one of them may free an id, and waiting for a commit that is running costs less than
   * declining the checkpoint.
   */
  @Override
  public void snapshotState(FunctionSnapshotContext context) throws Exception {
    if (pool.freeIndex(pendingTransactions(), currentTransaction()).isEmpty()) {
      awaitCommitsInFlight();
    }
    super.snapshotState(context);
  }

  @Override
  protected void maybeDeclineCheckpoint(long checkpointId) {
    pool.maybeDecline(checkpointId, pendingTransactions(), currentTransaction());
  }

  @Override
  public void notifyCheckpointAborted(long checkpointId) {
    super.notifyCheckpointAborted(checkpointId);
    pool.checkpointAborted(checkpointId);
  }

  // ---- the committer ---------------------------------------------------------------------

  @Override
  public void notifyCheckpointComplete(long checkpointId) throws Exception {
    super.notifyCheckpointComplete(checkpointId);
    pool.checkpointCompleted(checkpointId);
  }

  @Override
  protected void commit(KafkaTransaction transaction) {
    committer.commit(transaction);
  }

  /**
   * The job finished or stopped with a savepoint, and the last commit returned: what it wrote is to
   * be readable before the subtask ends, so the job's end means its output can be read.
   */
  @Override
  public void afterLastCommit() throws Exception {
    awaitCommitsInFlight();
    if (committer != null) {
      committer.awaitCommittedReadable();
    }
  }

  // ---- the recovery ----------------------------------------------------------------------

  @Override
  protected void recoverAndCommit(KafkaTransaction transaction) {
    recovery().recoverAndCommit(transaction);
  }

  /** The open transaction of the killed process is aborted with the other lingering ones. */
  @Override
  protected void recoverAndAbort(KafkaTransaction transaction) {}

  @Override
  protected List<TransactionOutcome> proveOutcomes(
      SortedMap<Long, List<KafkaTransaction>> pending, List<KafkaTransaction> open) {
    return recovery().proveOutcomes(pending, open);
  }

  @Override
  public void abortLingeringBesideSubtasks(int parallelism) {
    recovery().abortLingeringBesideSubtasks(parallelism);
  }

  @Override
  public boolean abortsLingeringBesideSubtasks() {
    return true;
  }

  @Override
  public List<String> lingeringTransactions() {
    return recovery().lingeringTransactions();
  }

  /** Its transactional ids; its marker topic is made from the prefix alone too. */
  @Override
  public Optional<String> transactionIdSpace(
      String jobName, String operatorName, String operatorUid) {
    return Optional.of(TransactionalIds.describe(config.transactionalIdPrefix()));
  }

  @Override
  public void close() throws Exception {
    try {
      super.close();
    } finally {
      if (writer != null) {
        writer.close();
      }
    }
  }
}
