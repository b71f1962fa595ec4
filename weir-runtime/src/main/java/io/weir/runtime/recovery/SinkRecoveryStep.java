package io.weir.runtime.recovery;

import io.weir.api.functions.LeaseEpoch;
import io.weir.api.functions.RichFunction;
import io.weir.api.graph.OperatorSpec;
import io.weir.api.graph.Transformation;
import io.weir.api.sink.RecoverableSink;
import io.weir.api.sink.TransactionOutcome;
import io.weir.api.sink.TwoPhaseCommitSinkFunction;
import io.weir.api.source.GroupPositionedSource;
import io.weir.api.state.StateSerializer;
import io.weir.runtime.checkpoint.CompletedCheckpoint;
import io.weir.runtime.checkpoint.OperatorState;
import io.weir.runtime.checkpoint.explain.CheckpointContents;
import io.weir.runtime.graph.JobGraph;
import io.weir.runtime.graph.TransactionIdSpaces;
import io.weir.runtime.operators.FunctionCopier;
import io.weir.runtime.state.OperatorSubtaskState;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.function.Consumer;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The job-level sink recovery step, run by whoever deploys an attempt (the local job run and the
 * cluster's job manager) right before it deploys any task: for every {@link RecoverableSink} of the
 * job, commits the pending transactions of all former subtasks recorded in the restored checkpoint,
 * whatever the new parallelism, aborts the sink's lingering ones by exact id, and proves each
 * outcome. Only then may tasks begin transactions, so no new subtask can fence or reuse an id whose
 * transaction is still to be settled.
 *
 * <p>A fresh start has nothing to commit; what a sink settles then (lingering transactions of an
 * earlier run, under ids no new subtask takes) runs beside the deployment and start of the subtasks
 * when the sink allows it ({@link RecoverableSink#abortsLingeringBesideSubtasks}), so that its
 * broker round trips are not on the way to the first output.
 *
 * <p>A proven aborted transaction is data loss: it fails the job with a {@link DataLossException}
 * unless the job accepts data loss, in which case it is logged as an error and the job goes on.
 * Runs on the caller's thread, which must have the job's classes on its context class loader.
 */
public final class SinkRecoveryStep {
  private static final Logger LOG = LoggerFactory.getLogger(SinkRecoveryStep.class);

  private final JobGraph graph;
  private final LeaseEpoch leaseEpoch;
  private final OutcomeListener listener;
  private FreshStartSettlement freshStart;
  private int settledTransactions;

  /** Hears of each transaction outcome the step proved, as soon as it is proven. */
  @FunctionalInterface
  public interface OutcomeListener {
    /**
     * Called on the step's thread, in the order of the job's operators and, per sink, of the
     * checkpoints; before the step throws a {@link DataLossException} for the outcome. Must not
     * block.
     */
    void onOutcome(Transformation sink, TransactionOutcome outcome);

    OutcomeListener NONE = (sink, outcome) -> {};
  }

  /**
   * @param leaseEpoch the lease the run holds on the job's checkpoint directory: each sink's copy
   *     gets it in its {@link SinkRecoveryContext} and fences its recovery with it
   */
  public SinkRecoveryStep(JobGraph graph, LeaseEpoch leaseEpoch, OutcomeListener listener) {
    this.graph = graph;
    this.leaseEpoch = leaseEpoch;
    this.listener = listener;
  }

  /**
   * Settles every recoverable sink's transactions for an attempt that restores {@code restored}
   * (null on a fresh start, which still aborts lingering transactions).
   *
   * @throws DataLossException when a transaction of the checkpoint was aborted and the job does not
   *     accept data loss
   * @return one DATA LOSS line per transaction the job went on without because it accepts data
   *     loss; empty when nothing was lost
   * @throws Exception when an outcome cannot be settled or proven (the attempt fails, a later one
   *     tries again)
   */
  public List<String> run(CompletedCheckpoint restored) throws Exception {
    List<String> accepted = new ArrayList<>();
    List<Transformation> besideSubtasks = new ArrayList<>();
    for (Transformation operator : graph.operators()) {
      RecoverableSink recoverable = TransactionIdSpaces.recoverableSinkOf(operator.spec());
      if (recoverable == null) {
        continue;
      }
      if (restored != null) {
        accepted.addAll(recover(operator, recoverable, restored));
      } else if (recoverable.abortsLingeringBesideSubtasks()) {
        besideSubtasks.add(operator);
      } else {
        abortLingering(operator, recoverable);
      }
    }
    if (!besideSubtasks.isEmpty()) {
      freshStart = FreshStartSettlement.start(graph, besideSubtasks);
    }
    return accepted;
  }

  /**
   * A start without state (from the group's offsets, or fresh) with {@code newest}, the newest
   * checkpoint or savepoint of the job's directory, at hand. The group's offsets may be behind
   * output the sinks committed (a sink that commits before the sources' offsets, or a source whose
   * notification came first and a sink commit that did not follow), and a plain fresh start would
   * abort pending transactions whose records the group already counts. So it settles the sinks as a
   * restore of {@code newest} does — commits every pending transaction it records, aborts the rest,
   * proves each outcome — and then moves each {@link GroupPositionedSource}'s group positions
   * forward to the checkpoint's: every split starts at the later of the group's position and the
   * one the now committed transactions cover, so nothing is lost or written twice. Logs one line
   * saying what it reconciled.
   *
   * @return and throws as {@link #run}
   */
  public List<String> reconcile(CompletedCheckpoint newest) throws Exception {
    List<String> accepted = run(newest);
    if (!accepted.isEmpty()) {
      // A transaction of the checkpoint was lost: the group's offsets stay, so that the sources
      // read its records again where the group had not counted them yet.
      LOG.warn(
          "Starting from the group's offsets with checkpoint {} at hand: {} of its transaction(s)"
              + " were lost; the group's offsets stay where they are",
          newest.checkpointId(),
          accepted.size());
      return accepted;
    }
    List<String> moved = new ArrayList<>();
    for (Transformation operator : graph.operators()) {
      OperatorState state = newest.operators().get(operator.uid());
      if (state != null
          && operator.spec() instanceof OperatorSpec.Source source
          && source.function() instanceof GroupPositionedSource positioned) {
        FunctionCopier.copy(positioned, operator.displayName())
            .startNoEarlierThan(CheckpointContents.positionsOf(state))
            .forEach(phrase -> moved.add("'" + operator.displayName() + "' " + phrase));
      }
    }
    LOG.warn(
        "Starting from the group's offsets, reconciled with checkpoint {}: committed {} pending"
            + " transaction(s) it recorded; {}",
        newest.checkpointId(),
        settledTransactions,
        moved.isEmpty()
            ? "the group's offsets were already past them"
            : "moved the group's offsets past them: " + String.join(", ", moved));
    return accepted;
  }

  /**
   * The first start of a job without state and without a checkpoint to reconcile with (no
   * checkpoint directory, or none readable in it): nothing records which transactions an earlier
   * run left pending nor where their records came from, so aborting them may lose records the
   * group's offsets count, and the group's offsets may be behind output already committed. Refuses,
   * naming each sink's open transactions, unless the job accepts data loss. A sink whose open
   * transactions cannot be listed fails the start: the restart strategy tries again, unless the
   * sink's failure suppresses restarts.
   *
   * @throws DataLossException naming the sink and its open transactions
   * @throws IllegalStateException naming the sink, when it cannot list its open transactions
   */
  public void refuseUnprovableStart() throws InterruptedException {
    if (graph.config().acceptDataLoss()) {
      return;
    }
    for (Transformation operator : graph.operators()) {
      RecoverableSink recoverable = TransactionIdSpaces.recoverableSinkOf(operator.spec());
      if (recoverable == null) {
        continue;
      }
      List<String> open;
      try {
        open = FunctionCopier.copy(recoverable, operator.displayName()).lingeringTransactions();
      } catch (InterruptedException e) {
        throw e;
      } catch (Exception e) {
        // Its subtasks would abort whatever is open under their ids: the start must not go on.
        throw new IllegalStateException(
            "Sink '"
                + operator.displayName()
                + "' cannot tell which transactions an earlier run left open: "
                + e.getMessage(),
            e);
      }
      if (!open.isEmpty()) {
        throw new DataLossException(
            "Sink '"
                + operator.displayName()
                + "' has transactions open from an earlier run "
                + open
                + " and no checkpoint at hand records what they hold: starting without state would"
                + " abort them, losing records the group's offsets count, or read again records"
                + " they committed; start with the earlier run's --checkpoint-dir, or rerun with"
                + " --accept-data-loss");
      }
    }
  }

  /**
   * Waits until what a fresh start settles beside the subtasks is done (at once when {@link #run}
   * started nothing of the kind); the caller waits before the attempt ends, so that no settlement
   * of one attempt runs into the next one's recovery step. Never fails: what it could not settle
   * was logged.
   */
  public void awaitFreshStart() throws InterruptedException {
    if (freshStart != null) {
      freshStart.await();
    }
  }

  /**
   * A fresh start has nothing to commit, only lingering transactions of an earlier run to abort so
   * that they do not hold readers back. When that fails (the external system is not reachable yet)
   * the start goes on: nothing can be lost, the tasks' own producers abort what they own, and the
   * sources report an unreachable system within their start timeout instead of this step restarting
   * the job for ever.
   */
  private void abortLingering(Transformation operator, RecoverableSink sink)
      throws InterruptedException {
    try {
      recover(operator, sink, null);
    } catch (InterruptedException e) {
      throw e;
    } catch (Exception e) {
      LOG.warn(
          "Sink '{}': lingering transactions of an earlier run were not aborted before a fresh"
              + " start: {}",
          operator.displayName(),
          e.getMessage());
    }
  }

  private List<String> recover(
      Transformation operator, RecoverableSink sink, CompletedCheckpoint restored)
      throws Exception {
    // The graph's function stays untouched: the step works on a copy, as a task would.
    RecoverableSink copy = FunctionCopier.copy(sink, operator.displayName());
    if (copy instanceof RichFunction rich) {
      rich.setRuntimeContext(
          new SinkRecoveryContext(
              graph.jobName(),
              operator.displayName(),
              operator.uid(),
              graph.vertexOf(operator).parallelism(),
              graph.config().maxParallelism(),
              leaseEpoch));
    }
    return settle(
        operator.displayName(),
        copy,
        restored == null ? null : restored.operators().get(operator.uid()),
        restored == null ? 0 : restored.checkpointId(),
        graph.config().acceptDataLoss(),
        outcome -> {
          settledTransactions++;
          listener.onOutcome(operator, outcome);
        });
  }

  /**
   * The step for one sink: settles, with the instance {@code sink} (which it initialises for that
   * alone), the transactions that {@code state} (the sink operator's state in checkpoint {@code
   * checkpointId}, or null on a fresh start) records. Also for callers that restore a single
   * operator, such as a test harness.
   *
   * @return the DATA LOSS lines accepted, as {@link #run}
   * @throws DataLossException as {@link #run}
   */
  public static List<String> settle(
      String name,
      RecoverableSink sink,
      OperatorState state,
      long checkpointId,
      boolean acceptDataLoss)
      throws Exception {
    return settle(name, sink, state, checkpointId, acceptDataLoss, outcome -> {});
  }

  /** As above, telling {@code onOutcome} of each proven outcome before acting on it. */
  public static List<String> settle(
      String name,
      RecoverableSink sink,
      OperatorState state,
      long checkpointId,
      boolean acceptDataLoss,
      Consumer<TransactionOutcome> onOutcome)
      throws Exception {
    List<TransactionOutcome> outcomes = sink.recoverTransactions(restoredStates(state));
    List<String> accepted = new ArrayList<>();
    for (TransactionOutcome outcome : outcomes) {
      onOutcome.accept(outcome);
      if (!outcome.isDataLoss()) {
        LOG.debug(
            "Sink '{}': transaction {} of checkpoint {} is committed",
            name,
            outcome.transaction(),
            outcome.checkpointId());
        continue;
      }
      String line = dataLossLine(name, outcome);
      if (!acceptDataLoss) {
        throw new DataLossException(
            line + "; to continue without them, rerun with --accept-data-loss");
      }
      LOG.error("{}; going on as --accept-data-loss says", line);
      accepted.add(line);
    }
    if (!outcomes.isEmpty()) {
      LOG.info(
          "Sink '{}' settled {} transaction(s) of checkpoint {} before its tasks started",
          name,
          outcomes.size(),
          checkpointId);
    }
    return accepted;
  }

  static String dataLossLine(String sink, TransactionOutcome outcome) {
    return "DATA LOSS: checkpoint "
        + outcome.checkpointId()
        + ", sink '"
        + sink
        + "', transaction "
        + outcome.transaction()
        + ": "
        + outcome.describeRecords()
        + " were aborted before they could be committed";
  }

  /** The sink's two-phase-commit state elements of every former subtask, in subtask order. */
  private static List<byte[]> restoredStates(OperatorState state) {
    List<byte[]> states = new ArrayList<>();
    if (state == null) {
      return states;
    }
    for (Map.Entry<Integer, OperatorSubtaskState> subtask :
        new TreeMap<>(state.subtasks()).entrySet()) {
      for (byte[] element :
          subtask
              .getValue()
              .listStates()
              .getOrDefault(TwoPhaseCommitSinkFunction.STATE_NAME, List.of())) {
        // Operator state keeps each list element Java-serialized; the sink's are byte arrays.
        states.add(StateSerializer.<byte[]>java().deserialize(element));
      }
    }
    return states;
  }
}
