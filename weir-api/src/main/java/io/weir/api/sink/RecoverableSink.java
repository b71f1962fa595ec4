package io.weir.api.sink;

import java.util.List;

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
 */
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
}
