package io.weir.runtime.sink.twophase;

import io.weir.api.checkpoint.CommitObserver;
import io.weir.api.sink.TransactionHolder;
import io.weir.api.sink.TransactionOutcome;
import io.weir.api.sink.TransactionStatus;
import io.weir.api.sink.TwoPhaseCommitHooks;
import java.util.ArrayList;
import java.util.Collections;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.SortedMap;
import java.util.TreeMap;

/**
 * Settles the transactions a two-phase-commit sink recorded in a restored checkpoint: commits the
 * pending ones, aborts the open ones, and takes the user context back.
 *
 * <p>Two callers: the job-level recovery step ({@link #recoverTransactions}, on the job manager's
 * thread, once per attempt, before any subtask runs), and a subtask restored without that step
 * ({@link #restoreSubtask}, on the task thread, e.g. in a test harness), which settles the state
 * given to it. Either may run again after a failure: commits and aborts are idempotent.
 */
final class TransactionRecovery<TXN, CONTEXT> {
  private final TwoPhaseCommitHooks<?, TXN, CONTEXT> sink;
  private final TransactionCommitter<TXN> committer;
  private final TwoPhaseCommitStateCodec<TXN, CONTEXT> codec;
  // The pending transactions the last job-level recovery dropped as timed out, by identity.
  private final Set<TXN> droppedOnRecovery = Collections.newSetFromMap(new IdentityHashMap<>());

  TransactionRecovery(
      TwoPhaseCommitHooks<?, TXN, CONTEXT> sink,
      TransactionCommitter<TXN> committer,
      TwoPhaseCommitStateCodec<TXN, CONTEXT> codec) {
    this.sink = sink;
    this.committer = committer;
    this.codec = codec;
  }

  /**
   * The job-level step: fences earlier attempts, commits every pending transaction of all former
   * subtasks with {@code recoverAndCommit}, in checkpoint order per subtask, aborts their open ones
   * with {@code recoverAndAbort}, then returns what the sink's {@code proveOutcomes} proves.
   */
  List<TransactionOutcome> recoverTransactions(List<byte[]> restoredStates) throws Exception {
    sink.fenceEarlierAttempts();
    droppedOnRecovery.clear();
    SortedMap<Long, List<TXN>> pending = new TreeMap<>();
    List<TXN> open = new ArrayList<>();
    for (byte[] bytes : restoredStates) {
      TwoPhaseCommitState<TXN, CONTEXT> recovered = codec.decode(bytes);
      for (Map.Entry<Long, TransactionHolder<TXN>> entry : recovered.pending().entrySet()) {
        TXN transaction = entry.getValue().handle();
        pending.computeIfAbsent(entry.getKey(), id -> new ArrayList<>()).add(transaction);
        if (committer.commit(entry.getKey(), entry.getValue(), sink::recoverAndCommit)
            != TransactionStatus.COMMITTED) {
          droppedOnRecovery.add(transaction);
        }
      }
      open.add(recovered.current().handle());
    }
    for (TXN transaction : open) {
      sink.recoverAndAbort(transaction);
    }
    return sink.proveOutcomes(pending, open);
  }

  /**
   * What the sink's default {@code proveOutcomes} proves: each pending transaction committed,
   * except those the last {@link #recoverTransactions} dropped as timed out; counts unknown.
   */
  List<TransactionOutcome> outcomesOfRecoveredCommits(SortedMap<Long, List<TXN>> pending) {
    List<TransactionOutcome> outcomes = new ArrayList<>();
    pending.forEach(
        (checkpointId, transactions) ->
            transactions.forEach(
                transaction ->
                    outcomes.add(
                        new TransactionOutcome(
                            checkpointId,
                            String.valueOf(transaction),
                            -1,
                            droppedOnRecovery.contains(transaction)
                                ? TransactionOutcome.Outcome.ABORTED
                                : TransactionOutcome.Outcome.COMMITTED))));
    return outcomes;
  }

  /**
   * What a subtask restored: every transaction of the elements it was given, pending ones first per
   * element (for the sink's {@code finishRecoveringContext}), and the first user context they hold.
   */
  record Restored<TXN, CONTEXT>(List<TXN> handled, Optional<CONTEXT> context) {}

  /**
   * A subtask's restore of {@code restored} (one element per former subtask given to it): unless
   * the job already settled them ({@code settled}), commits the pending transactions and aborts the
   * open one of each element.
   */
  Restored<TXN, CONTEXT> restoreSubtask(List<byte[]> restored, boolean settled) throws Exception {
    List<TXN> handled = new ArrayList<>();
    Optional<CONTEXT> context = Optional.empty();
    for (byte[] bytes : restored) {
      TwoPhaseCommitState<TXN, CONTEXT> recovered = codec.decode(bytes);
      if (!settled) {
        committer.commitAll(
            new TreeMap<>(recovered.pending()), sink::recoverAndCommit, CommitObserver.NONE);
      }
      recovered.pending().values().forEach(holder -> handled.add(holder.handle()));
      if (!settled) {
        sink.recoverAndAbort(recovered.current().moveTo(TransactionStatus.ABORTED).handle());
      }
      handled.add(recovered.current().handle());
      if (context.isEmpty()) {
        context = recovered.context();
      }
    }
    return new Restored<>(handled, context);
  }
}
