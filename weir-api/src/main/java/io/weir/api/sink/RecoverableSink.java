package io.weir.api.sink;

import io.weir.api.annotation.PublicEvolving;
import java.time.Duration;
import java.util.List;
import java.util.Optional;

/**
 * A sink whose transactions the job settles once, from one place, before any of its subtasks runs:
 * the job-level recovery step of every (re)start. {@link TwoPhaseCommitSinkFunction} implements it;
 * a sink author extends that class rather than implementing this.
 *
 * <p>Contract: called by the job manager on its own thread, at most once per attempt of the job,
 * before any subtask of the attempt is deployed and so never concurrently with the sink's subtasks
 * or with another call; on an instance of its own (a copy of the job's sink), which it may leave in
 * any state. It may block (broker round trips). When it returns, every transaction recorded in
 * {@code restoredStates} is settled — committed or proven aborted — and nothing any earlier run of
 * this sink began is still open, so new subtasks, at any parallelism, can begin transactions under
 * any id of the sink. An exception means nothing is proven: the attempt fails and the next one
 * calls again; calling again is safe.
 *
 * <p>A sink that is a {@link io.weir.api.functions.RichFunction} gets a runtime context first,
 * naming the job and the operator and carrying the run's {@link
 * io.weir.api.functions.RuntimeContext#leaseEpoch() lease epoch}, the fencing token a sink records
 * in its external system; the step runs no subtask, so its subtask index, attempt and keyed state
 * are not available there.
 */
@PublicEvolving
public interface RecoverableSink {
  /**
   * Settles every transaction recorded in the restored state of all former subtasks.
   *
   * @param restoredStates every element of the sink's operator state {@link
   *     TwoPhaseCommitSinkFunction#STATE_NAME} in the restored checkpoint, of all former subtasks;
   *     empty on a fresh start (lingering transactions of earlier runs are still aborted)
   * @return the proven outcome of each transaction that was pending in the checkpoint, in
   *     checkpoint order
   */
  List<TransactionOutcome> recoverTransactions(List<byte[]> restoredStates) throws Exception;

  /**
   * Whether a fresh start's settlement may run while the new attempt's subtasks start ({@link
   * #abortLingeringBesideSubtasks}), instead of {@code recoverTransactions(List.of())} before any
   * of them is deployed. Only a sink whose new subtasks settle the ids they take themselves, when
   * they start, may say yes. Default: false.
   */
  default boolean abortsLingeringBesideSubtasks() {
    return false;
  }

  /**
   * A fresh start's settlement, while the new attempt's subtasks start: aborts what earlier runs
   * left open under the ids that no subtask of the new attempt takes at {@code parallelism}, and
   * touches no other id, so it can never fence a new subtask nor be fenced by one. Called only when
   * {@link #abortsLingeringBesideSubtasks} says so, on a thread of the job manager's, on an
   * instance of its own; may block. An exception settles nothing and fails nothing: nothing of a
   * fresh start can be lost.
   */
  default void abortLingeringBesideSubtasks(int parallelism) throws Exception {
    throw new UnsupportedOperationException(
        getClass().getName() + " settles a fresh start before its subtasks start");
  }

  /**
   * What earlier runs of this sink left open, one name per transaction (a Kafka sink: its
   * transactional ids), for the first start without state of a job that has no checkpoint to
   * reconcile with (no checkpoint directory, or none in it): nothing records whether they were
   * pre-committed nor whether the group's offsets count their records, so the job refuses to abort
   * them unless it accepts data loss. Called by the job manager on its own thread before any
   * subtask is deployed, on an instance of its own; may block. An exception fails the start, as its
   * subtasks would abort what is open (a {@code SuppressRestartsException} for good, any other for
   * the restart strategy to try again). Default: none known.
   */
  default List<String> lingeringTransactions() throws Exception {
    return List.of();
  }

  /**
   * Where this sink's transactions live outside the job, as a few words a user can read (the system
   * and the shape of the ids, e.g. {@code Kafka transactional ids 'orders-<subtask>-<n>'}), for the
   * names the job gives the sink; empty when its ids depend on nothing two sinks could share. The
   * job refuses to build when two of its operators give the same answer: each would commit, roll
   * back or prove the other's transactions. Called on the thread that builds the job, before
   * anything runs, on the job's own instance; must not block nor reach the external system.
   *
   * @param jobName the job's name, as {@code RuntimeContext.jobName()} gives it
   * @param operatorName the operator's name, as {@code RuntimeContext.operatorName()} gives it
   * @param operatorUid the operator's uid, as {@code RuntimeContext.operatorUid()} gives it
   */
  default Optional<String> transactionIdSpace(
      String jobName, String operatorName, String operatorUid) {
    return Optional.empty();
  }

  /**
   * How long the external system keeps one of this sink's transactions before it aborts it, when
   * known; the job refuses to build when its checkpoints and restarts may keep a transaction
   * waiting longer than {@link TwoPhaseCommitOptions#AGE_LIMIT_RATIO} of it. Called on the thread
   * that builds the job, on the job's own instance; must not block. Default: unknown.
   */
  default Optional<Duration> transactionTimeout() {
    return Optional.empty();
  }

  /**
   * The transactions of this subtask as observers see them (the open one and the pending ones, in
   * checkpoint order), for the dashboard and metrics. Called from any thread on a running subtask's
   * instance; must not block. Default: none.
   */
  default List<TransactionView> transactionViews() {
    return List.of();
  }
}
