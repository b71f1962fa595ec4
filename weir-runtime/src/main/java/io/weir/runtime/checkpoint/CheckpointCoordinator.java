package io.weir.runtime.checkpoint;

import io.weir.api.datastream.JobConfig;
import io.weir.runtime.failpoint.FailpointNames;
import io.weir.runtime.failpoint.Failpoints;
import io.weir.runtime.startup.StartupPhases;
import java.io.IOException;
import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeMap;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.TimeUnit;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The job manager's side of checkpoints: triggers them at the sources, collects every subtask's
 * acknowledgement, stores the metadata (which makes the checkpoint complete), then tells every
 * task. A notification that cannot be sent does not undo the checkpoint: the next one's covers it,
 * and the result future of the checkpoint fails so a caller waiting for it takes another. A
 * checkpoint declined by a task or not acknowledged within the timeout is aborted and every task is
 * told so. Checkpoint ids only grow, also across restarts. Periodic checkpoints pause while a
 * savepoint is pending (a checkpoint completing after it would subsume what it just wrote), and
 * stop for good with a stop-with-savepoint unless that one is aborted. The first output is
 * committed as soon as it exists: when a sink receives its first record ({@link #outputStarted}),
 * the next checkpoint is due at once rather than an interval after the previous trigger.
 *
 * <p>Thread safe: triggers come from the timer thread, acknowledgements from the tasks' snapshot
 * threads; every state change happens under this object's lock.
 */
public final class CheckpointCoordinator {
  private static final Logger LOG = LoggerFactory.getLogger(CheckpointCoordinator.class);

  /** How the coordinator reaches the tasks; calls must not block. */
  public interface TaskGateway {
    /**
     * Asks every source to place checkpoint {@code checkpointId}'s barrier; for a {@link
     * CheckpointKind#STOP_SAVEPOINT} the sources emit nothing more after it, until the checkpoint
     * is aborted.
     */
    void triggerCheckpoint(long checkpointId, long timestamp, CheckpointKind kind);

    void notifyCheckpointComplete(long checkpointId);

    void notifyCheckpointAborted(long checkpointId);
  }

  /**
   * State the job manager itself keeps in each checkpoint's metadata: the sources' split
   * enumerators. Taken at the trigger, under the coordinator's lock, before the trigger goes to the
   * tasks; so everything the enumerators did before it reaches the tasks before the barriers.
   */
  public interface MasterState {
    MasterState NONE = checkpointId -> Map.of();

    /** Each part's state by operator uid; an exception aborts the checkpoint. */
    Map<String, byte[]> snapshot(long checkpointId) throws Exception;
  }

  /**
   * Told about every completed checkpoint right after its metadata is stored, before its
   * notifications go out (they may be lost; the checkpoint is complete all the same).
   */
  public interface CompletionListener {
    void onCompleted(CompletedCheckpoint checkpoint);
  }

  private final String jobName;
  private final List<OperatorInfo> operators;
  private final Set<SubtaskKey> subtasks;
  private final CheckpointStorage storage;
  private final JobConfig config;
  private final TaskGateway gateway;
  private final ScheduledExecutorService timer;
  private final Clock clock;
  private final CheckpointHistory history;
  private final Failpoints failpoints;
  private final MasterState masterState;
  private final CheckpointCompletion completion;
  private final TreeMap<Long, PendingCheckpoint> pending = new TreeMap<>();
  private final CheckpointSchedule schedule;
  private long nextCheckpointId;
  private CoordinatorState state = CoordinatorState.STOPPED;
  private ScheduledFuture<?> periodic;

  public CheckpointCoordinator(
      String jobName,
      List<OperatorInfo> operators,
      Set<SubtaskKey> subtasks,
      CheckpointStorage storage,
      JobConfig config,
      TaskGateway gateway,
      ScheduledExecutorService timer,
      Clock clock,
      long firstCheckpointId,
      CompletionListener listener,
      CheckpointHistory history,
      Failpoints failpoints) {
    this(
        jobName,
        operators,
        subtasks,
        storage,
        config,
        gateway,
        timer,
        clock,
        firstCheckpointId,
        listener,
        history,
        failpoints,
        MasterState.NONE);
  }

  /**
   * @param masterState what the job manager keeps in each checkpoint beside the tasks' state
   */
  public CheckpointCoordinator(
      String jobName,
      List<OperatorInfo> operators,
      Set<SubtaskKey> subtasks,
      CheckpointStorage storage,
      JobConfig config,
      TaskGateway gateway,
      ScheduledExecutorService timer,
      Clock clock,
      long firstCheckpointId,
      CompletionListener listener,
      CheckpointHistory history,
      Failpoints failpoints,
      MasterState masterState) {
    this.masterState = masterState;
    this.jobName = jobName;
    this.operators = List.copyOf(operators);
    this.subtasks = Set.copyOf(subtasks);
    this.storage = storage;
    this.config = config;
    this.gateway = gateway;
    this.timer = timer;
    this.clock = clock;
    this.nextCheckpointId = firstCheckpointId;
    this.history = history;
    this.failpoints = failpoints;
    this.schedule = new CheckpointSchedule(config);
    this.completion =
        new CheckpointCompletion(
            jobName, operators, storage, gateway, clock, listener, history, failpoints);
  }

  /**
   * Lets the storage ready itself for completing checkpoints while the tasks deploy, with metadata
   * of this job's shape (every subtask's state handle, none stored). Only for a job with periodic
   * checkpoints: its first output waits for the first completion.
   */
  public void prepareStorage() {
    if (config.checkpointInterval() == null) {
      return;
    }
    List<CheckpointMetadata.SubtaskStateHandle> states = new ArrayList<>();
    for (SubtaskKey subtask : subtasks) {
      states.add(
          new CheckpointMetadata.SubtaskStateHandle(
              subtask.taskId(), subtask.subtaskIndex(), new StateHandle("none", 0, 0)));
    }
    storage.prepareInBackground(
        new CheckpointMetadata(0, clock.millis(), jobName, false, operators, states, 0));
  }

  /**
   * Starts periodic checkpoints when the job has an interval: the first one interval from now, each
   * next one exactly an interval after the previous trigger — not at the next poll after it — and
   * no earlier than the minimum pause after the last completion. While the maximum of concurrent
   * checkpoints is pending, the next is triggered as soon as one of them completes or aborts.
   */
  public synchronized void startPeriodic() {
    startPeriodic(config.checkpointInterval());
  }

  /**
   * Starts periodic checkpoints with the first one right away, for a caller that knows every task
   * runs: the first checkpoint then holds what the sources read meanwhile, and after a restore it
   * is what makes the first new output visible, an interval sooner.
   */
  public synchronized void startPeriodicNow() {
    startPeriodic(Duration.ZERO);
  }

  private void startPeriodic(Duration firstDelay) {
    if (config.checkpointInterval() == null || state != CoordinatorState.STOPPED) {
      return;
    }
    state = state.moveTo(CoordinatorState.PERIODIC);
    schedule.startAt(clock.millis() + firstDelay.toMillis());
    schedulePeriodic();
  }

  /**
   * A sink received the job's first record (of this attempt): the first checkpoint triggered from
   * now on is due at once, not an interval after the previous trigger (which held no output), so
   * that the first output is committed as soon as a checkpoint can carry it. A checkpoint still
   * pending is not overtaken: the due one follows its completion (and the minimum pause). Once per
   * attempt; later calls change nothing. Without periodic checkpoints it does nothing.
   */
  public synchronized void outputStarted() {
    if (schedule.outputStarted(clock.millis())) {
      schedulePeriodic();
    }
  }

  public synchronized void stopPeriodic() {
    if (state == CoordinatorState.PERIODIC) {
      state = state.moveTo(CoordinatorState.STOPPED);
    }
    if (periodic != null) {
      periodic.cancel(false);
      periodic = null;
    }
  }

  /** (Re)schedules the periodic trigger for the moment the next checkpoint is due. */
  private void schedulePeriodic() {
    if (state != CoordinatorState.PERIODIC) {
      return;
    }
    if (periodic != null) {
      periodic.cancel(false);
    }
    long delay = Math.max(0, schedule.dueMillis() - clock.millis());
    periodic = timer.schedule(this::maybeTriggerPeriodic, delay, TimeUnit.MILLISECONDS);
  }

  private synchronized void maybeTriggerPeriodic() {
    periodic = null;
    if (state != CoordinatorState.PERIODIC) {
      return;
    }
    if (pending.size() >= config.maxConcurrentCheckpoints() || savepointPending()) {
      return; // the completion or abort of a pending one reschedules
    }
    if (clock.millis() < schedule.dueMillis()) {
      schedulePeriodic();
      return;
    }
    trigger();
    schedulePeriodic();
  }

  /** Triggers a checkpoint now; the future completes when it is complete or aborted. */
  public synchronized CompletableFuture<CompletedCheckpoint> trigger() {
    return trigger(CheckpointKind.CHECKPOINT);
  }

  /**
   * Triggers a savepoint of {@code kind} into {@code savepointStorage} (a savepoint directory's
   * storage): a checkpoint kept there, outside the job's retention. The job's storage must be a
   * {@link RoutingCheckpointStorage}. For a {@link CheckpointKind#STOP_SAVEPOINT} periodic
   * checkpoints stop now and start again only if the savepoint is aborted: after it, nothing is
   * left to checkpoint.
   */
  public synchronized CompletableFuture<CompletedCheckpoint> triggerSavepoint(
      CheckpointStorage savepointStorage, CheckpointKind kind) {
    if (!kind.isSavepoint()) {
      throw new IllegalArgumentException(kind + " is not a savepoint");
    }
    if (!(storage instanceof RoutingCheckpointStorage routing)) {
      return CompletableFuture.failedFuture(
          new IllegalStateException("This job's storage cannot take savepoints"));
    }
    routing.route(nextCheckpointId, savepointStorage);
    if (!kind.stopsSources()) {
      return trigger(kind);
    }
    stopPeriodic();
    state = state.moveTo(CoordinatorState.STOPPING_WITH_SAVEPOINT);
    // The caller hears of an abort only after periodic checkpoints resumed, so that a caller
    // stopping them again (a job whose every subtask finished meanwhile) has the last word.
    CompletableFuture<CompletedCheckpoint> stopped = new CompletableFuture<>();
    trigger(kind)
        .whenComplete(
            (checkpoint, failure) -> {
              if (failure == null) {
                stopped.complete(checkpoint);
                return;
              }
              if (!isCompleted(failure)) {
                resumeAfterAbortedStop();
              }
              stopped.completeExceptionally(failure);
            });
    return stopped;
  }

  /** An aborted stop-with-savepoint lets the job go on, with its periodic checkpoints. */
  private synchronized void resumeAfterAbortedStop() {
    if (state == CoordinatorState.STOPPING_WITH_SAVEPOINT) {
      state = state.moveTo(CoordinatorState.STOPPED);
      startPeriodic();
    }
  }

  /** True for the failure of a checkpoint that completed but whose notification was lost. */
  private static boolean isCompleted(Throwable failure) {
    return failure instanceof NotificationLostException;
  }

  private boolean savepointPending() {
    return pending.values().stream().anyMatch(checkpoint -> checkpoint.kind.isSavepoint());
  }

  private CompletableFuture<CompletedCheckpoint> trigger(CheckpointKind kind) {
    if (state == CoordinatorState.SHUT_DOWN) {
      return CompletableFuture.failedFuture(new IllegalStateException("coordinator shut down"));
    }
    long id = nextCheckpointId++;
    long timestamp = clock.millis();
    schedule.triggering(timestamp);
    try {
      storage.claimCheckpointId(id);
    } catch (IOException e) {
      LOG.warn("Checkpoint {} of job '{}' is not triggered: {}", id, jobName, e.getMessage());
      return CompletableFuture.failedFuture(e);
    }
    schedule.triggered();
    PendingCheckpoint checkpoint = new PendingCheckpoint(id, timestamp, subtasks, kind);
    pending.put(id, checkpoint);
    history.triggered(id, kind.isSavepoint(), timestamp);
    checkpoint.expiry =
        timer.schedule(
            () -> abort(id, "expired after " + config.checkpointTimeout()),
            config.checkpointTimeout().toMillis(),
            TimeUnit.MILLISECONDS);
    failpoints.hit(FailpointNames.CHECKPOINT_TRIGGER);
    try {
      checkpoint.masterStates = masterState.snapshot(id);
    } catch (Exception e) {
      abort(id, "the job manager's state could not be taken: " + e);
      return checkpoint.result;
    }
    if (schedule.noneCompleted()) {
      StartupPhases.reached("checkpoint " + id + " triggered");
    }
    gateway.triggerCheckpoint(id, timestamp, kind);
    return checkpoint.result;
  }

  public synchronized void acknowledge(
      long checkpointId, String taskId, int subtaskIndex, StateHandle handle) {
    PendingCheckpoint checkpoint = pending.get(checkpointId);
    if (checkpoint == null || !checkpoint.acknowledge(taskId, subtaskIndex, handle)) {
      return;
    }
    history.acknowledged(
        checkpointId, taskId, subtaskIndex, handle == null ? 0 : handle.length(), clock.millis());
    if (checkpoint.isFullyAcknowledged()) {
      complete(checkpoint);
    }
  }

  public synchronized void decline(
      long checkpointId, String taskId, int subtaskIndex, Throwable cause) {
    abort(
        checkpointId,
        "declined by " + taskId + " subtask " + subtaskIndex + ": " + cause.getMessage());
  }

  private void complete(PendingCheckpoint checkpoint) {
    long id = checkpoint.checkpointId;
    pending.remove(id);
    checkpoint.expiry.cancel(false);
    Optional<CheckpointStorage.Completion> stored =
        completion.store(checkpoint, schedule.noneCompleted());
    if (stored.isEmpty()) {
      schedulePeriodic();
      return;
    }
    checkpoint.end(CheckpointStatus.COMPLETED);
    long completionMillis = clock.millis();
    schedule.completed(completionMillis);
    history.completed(id, completionMillis);
    schedulePeriodic();
    // Older checkpoints still pending can no longer matter: this one is newer.
    while (!pending.isEmpty() && pending.firstKey() < id) {
      end(pending.firstKey(), CheckpointStatus.SUBSUMED, "subsumed by checkpoint " + id);
    }
    LOG.info(
        "Checkpoint {} of job '{}' complete in {} ms",
        id,
        jobName,
        completionMillis - checkpoint.timestamp);
    completion.announce(checkpoint, stored.get());
  }

  private synchronized void abort(long checkpointId, String reason) {
    end(checkpointId, CheckpointStatus.ABORTED, reason);
  }

  /** Ends a pending checkpoint that will not complete: aborted or subsumed. */
  private void end(long checkpointId, CheckpointStatus status, String reason) {
    PendingCheckpoint checkpoint = pending.remove(checkpointId);
    if (checkpoint == null) {
      return;
    }
    checkpoint.end(status);
    checkpoint.expiry.cancel(false);
    LOG.info("Checkpoint {} of job '{}' aborted: {}", checkpointId, jobName, reason);
    history.aborted(checkpointId, clock.millis(), reason);
    schedulePeriodic();
    storage.discard(checkpointId);
    if (state != CoordinatorState.SHUT_DOWN) {
      gateway.notifyCheckpointAborted(checkpointId);
    }
    checkpoint.result.completeExceptionally(
        new IllegalStateException("Checkpoint " + checkpointId + " aborted: " + reason));
  }

  /** The next id this coordinator will give; restarts continue from it. */
  public synchronized long nextCheckpointId() {
    return nextCheckpointId;
  }

  /** Stops triggering and drops pending checkpoints without telling the (failed) tasks. */
  public synchronized void shutDown() {
    stopPeriodic();
    if (state != CoordinatorState.SHUT_DOWN) {
      state = state.moveTo(CoordinatorState.SHUT_DOWN);
    }
    for (Long id : List.copyOf(pending.keySet())) {
      abort(id, "the job attempt ended");
    }
  }

  /** A checkpoint completed, but the tasks were not told; the next checkpoint's notification is. */
  public static final class NotificationLostException extends IllegalStateException {
    NotificationLostException(long checkpointId, Throwable cause) {
      super("Checkpoint " + checkpointId + " is complete but its notification was lost", cause);
    }
  }
}
