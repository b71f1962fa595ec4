package io.weir.runtime.jobmaster;

import io.weir.api.datastream.JobExecutionException;
import io.weir.runtime.checkpoint.CompletedCheckpoint;
import io.weir.runtime.checkpoint.RoutingCheckpointStorage;
import io.weir.runtime.checkpoint.storage.CheckpointDirectoryLease;
import io.weir.runtime.failpoint.FailpointNames;
import io.weir.runtime.failpoint.Failpoints;
import io.weir.runtime.graph.JobGraph;
import io.weir.runtime.monitor.RecoveryView;
import io.weir.runtime.recovery.DataLossException;
import io.weir.runtime.recovery.SinkRecoveryStep;
import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The job-level sink recovery step that comes before each attempt of one job deploys any task:
 * confirms the job is still this runner's, then settles every sink's pending transactions for the
 * checkpoint the attempt restores. It carries the first start's cases across attempts: a start
 * without state reconciles once with the newest checkpoint it found, and a first start that can
 * prove nothing of what it aborts is refused until one attempt got past that check.
 *
 * <p>Called on the job's own thread, one attempt at a time: {@link #settle} before the attempt
 * deploys, {@link #awaitFreshStart} before it ends. Never throws for a sink's failure: the {@link
 * Outcome} says whether the attempt or the whole job fails.
 */
final class JobSinkRecovery {
  private static final Logger LOG = LoggerFactory.getLogger(JobSinkRecovery.class);

  /** What the step of one attempt ended in, with what it proved of each pending transaction. */
  sealed interface Outcome {
    /**
     * Each pending transaction the step settled, with its proof, in the step's order; empty when it
     * touched no sink because the job is no longer this runner's.
     */
    Optional<List<RecoveryView.SinkTransaction>> proven();
  }

  /** Every sink is settled; {@code acceptedDataLoss} has a line for each loss the job accepts. */
  record Settled(List<String> acceptedDataLoss, Optional<List<RecoveryView.SinkTransaction>> proven)
      implements Outcome {}

  /** The attempt fails with {@code failure} without deploying; the restart strategy decides. */
  record AttemptFails(Throwable failure, Optional<List<RecoveryView.SinkTransaction>> proven)
      implements Outcome {}

  /** The job fails at once (proven data loss, or a newer run took the lease), with this line. */
  record JobFails(String line, Throwable cause, Optional<List<RecoveryView.SinkTransaction>> proven)
      implements Outcome {}

  private final JobGraph graph;
  private final RoutingCheckpointStorage storage;
  private final Optional<CheckpointDirectoryLease> lease;
  private final Failpoints failpoints;
  // A start without state settles this checkpoint's transactions once, in its first recovery step.
  private CompletedCheckpoint reconcileWith;
  // A first start without state nor a checkpoint to reconcile with cannot prove what it aborts.
  private boolean unprovableStart;
  private SinkRecoveryStep lastStep;

  /** The recovery of a job that starts from {@code initialRestore}. */
  JobSinkRecovery(
      JobGraph graph,
      RoutingCheckpointStorage storage,
      Optional<CheckpointDirectoryLease> lease,
      Failpoints failpoints,
      CheckpointStorages.InitialRestore initialRestore) {
    this.graph = graph;
    this.storage = storage;
    this.lease = lease;
    this.failpoints = failpoints;
    this.reconcileWith = initialRestore.reconcileWith();
    this.unprovableStart =
        initialRestore.checkpoint() == null
            && reconcileWith == null
            && (graph.config().fresh() || graph.config().checkpointDirectory() == null);
  }

  /**
   * Settles the sinks for an attempt that restores {@code restored} (null when it starts without
   * state).
   *
   * @throws InterruptedException when the job's thread is interrupted while a sink settles
   */
  Outcome settle(CompletedCheckpoint restored) throws InterruptedException {
    List<RecoveryView.SinkTransaction> proven = new ArrayList<>();
    lastStep = recoveryStep(proven);
    failpoints.hit(FailpointNames.RECOVERY_SINKS_BEFORE);
    // Settling aborts and commits transactions, renames and deletes staged files, under the ids
    // the job's running subtasks use: a leader deposed while it was frozen must not do it to the
    // attempt its successor runs. Its term is confirmed afresh here, as before a _metadata write.
    if (!storage.owned()) {
      String line =
          "job '"
              + graph.jobName()
              + "' is no longer this job manager's (a newer leader runs it): its sinks are left"
              + " to that leader";
      LOG.warn("Attempt not started: {}", line);
      return new AttemptFails(new IllegalStateException(line), Optional.empty());
    }
    Optional<Outcome> superseded = maybeSuperseded();
    if (superseded.isPresent()) {
      return superseded.get();
    }
    try {
      if (restored == null && unprovableStart) {
        lastStep.refuseUnprovableStart();
      }
      // Only the job's first start: later attempts abort what this run left open.
      unprovableStart = false;
      List<String> accepted =
          restored == null && reconcileWith != null
              ? lastStep.reconcile(reconcileWith)
              : lastStep.run(restored);
      // Reconciled once: the group's offsets now start past what the sinks committed.
      reconcileWith = null;
      return new Settled(accepted, Optional.of(List.copyOf(proven)));
    } catch (InterruptedException e) {
      throw e;
    } catch (DataLossException e) {
      return new JobFails(
          e.getMessage(),
          new JobExecutionException(e.getMessage(), e),
          Optional.of(List.copyOf(proven)));
    } catch (Exception e) {
      return new AttemptFails(
          new IllegalStateException("the sinks cannot be recovered: " + e.getMessage(), e),
          Optional.of(List.copyOf(proven)));
    }
  }

  /**
   * Waits until what the last step's fresh start settles beside the subtasks is done (see {@link
   * SinkRecoveryStep#awaitFreshStart}).
   */
  void awaitFreshStart() throws InterruptedException {
    if (lastStep != null) {
      lastStep.awaitFreshStart();
    }
  }

  /**
   * Whether another runner took the lease of the job's checkpoint directory since this one did
   * (where the operating-system lock did not hold): a later attempt of this run would settle the
   * sinks under the ids the newer run's subtasks use, for example abort a Kafka transaction it
   * pre-committed. A sink whose external system records the lease refuses as well; this covers
   * every sink, before any is touched. Empty when no newer run took it; the job fails when one did,
   * the attempt when the lease cannot be read.
   */
  private Optional<Outcome> maybeSuperseded() {
    if (lease.isEmpty()) {
      return Optional.empty();
    }
    try {
      lease.get().checkNotSuperseded(graph.jobName());
      return Optional.empty();
    } catch (JobExecutionException fenced) {
      return Optional.of(new JobFails(fenced.getMessage(), fenced, Optional.empty()));
    } catch (IOException e) {
      // Unreadable now, perhaps readable at the next attempt: the restart strategy decides.
      return Optional.of(
          new AttemptFails(
              new IllegalStateException(
                  "Cannot read the lease of job '" + graph.jobName() + "': " + e, e),
              Optional.empty()));
    }
  }

  /** The step of one attempt, telling {@code proven} what it proves. */
  private SinkRecoveryStep recoveryStep(List<RecoveryView.SinkTransaction> proven) {
    return new SinkRecoveryStep(
        graph,
        storage.leaseEpoch(),
        (sink, outcome) ->
            proven.add(
                new RecoveryView.SinkTransaction(
                    sink.uid(),
                    sink.displayName(),
                    outcome.checkpointId(),
                    outcome.transaction(),
                    outcome.recordCount(),
                    outcome.outcome().name(),
                    outcome.proof())));
  }
}
