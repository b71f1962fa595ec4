package io.weir.runtime.checkpoint;

import io.weir.api.datastream.JobConfig;
import io.weir.runtime.failpoint.FailpointNames;
import io.weir.runtime.failpoint.Failpoints;
import java.time.Clock;
import java.util.List;
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
 * told so. Checkpoint ids only grow, also across restarts.
 *
 * <p>Thread safe: triggers come from the timer thread, acknowledgements from the tasks' snapshot
 * threads; every state change happens under this object's lock.
 */
public final class CheckpointCoordinator {
  private static final Logger LOG = LoggerFactory.getLogger(CheckpointCoordinator.class);

  /** How the coordinator reaches the tasks; calls must not block. */
  public interface TaskGateway {
    void triggerCheckpoint(long checkpointId, long timestamp);

    void notifyCheckpointComplete(long checkpointId);

    void notifyCheckpointAborted(long checkpointId);
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
  private final CompletionListener listener;
  private final CheckpointHistory history;
  private final TreeMap<Long, PendingCheckpoint> pending = new TreeMap<>();
  private long nextCheckpointId;
  private long lastCompletionMillis;
  private long lastTriggerMillis;
  private ScheduledFuture<?> periodic;
  private boolean shutDown;

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
      CheckpointHistory history) {
    this.jobName = jobName;
    this.operators = List.copyOf(operators);
    this.subtasks = Set.copyOf(subtasks);
    this.storage = storage;
    this.config = config;
    this.gateway = gateway;
    this.timer = timer;
    this.clock = clock;
    this.nextCheckpointId = firstCheckpointId;
    this.listener = listener;
    this.history = history;
  }

  /** Starts periodic checkpoints when the job has an interval. */
  public synchronized void startPeriodic() {
    if (config.checkpointInterval() == null || shutDown) {
      return;
    }
    long interval = config.checkpointInterval().toMillis();
    periodic =
        timer.scheduleWithFixedDelay(
            this::maybeTriggerPeriodic,
            interval,
            Math.max(1, interval / 10),
            TimeUnit.MILLISECONDS);
  }

  public synchronized void stopPeriodic() {
    if (periodic != null) {
      periodic.cancel(false);
      periodic = null;
    }
  }

  private synchronized void maybeTriggerPeriodic() {
    long now = clock.millis();
    boolean due =
        now - lastTriggerMillis >= config.checkpointInterval().toMillis()
            && now - lastCompletionMillis >= config.minPauseBetweenCheckpoints().toMillis()
            && pending.size() < config.maxConcurrentCheckpoints();
    if (due) {
      trigger();
    }
  }

  /** Triggers a checkpoint now; the future completes when it is complete or aborted. */
  public synchronized CompletableFuture<CompletedCheckpoint> trigger() {
    return trigger(false);
  }

  /**
   * Triggers a savepoint into {@code directory}: a checkpoint kept there, outside the job's
   * retention. The storage must be a {@link RoutingCheckpointStorage}.
   */
  public synchronized CompletableFuture<CompletedCheckpoint> triggerSavepoint(
      java.nio.file.Path directory) {
    if (!(storage instanceof RoutingCheckpointStorage routing)) {
      return CompletableFuture.failedFuture(
          new IllegalStateException("This job's storage cannot take savepoints"));
    }
    routing.route(
        nextCheckpointId, new io.weir.runtime.checkpoint.storage.SavepointStorage(directory));
    return trigger(true);
  }

  private CompletableFuture<CompletedCheckpoint> trigger(boolean savepoint) {
    if (shutDown) {
      return CompletableFuture.failedFuture(new IllegalStateException("coordinator shut down"));
    }
    long id = nextCheckpointId++;
    long timestamp = clock.millis();
    lastTriggerMillis = timestamp;
    PendingCheckpoint checkpoint = new PendingCheckpoint(id, timestamp, subtasks, savepoint);
    pending.put(id, checkpoint);
    history.triggered(id, savepoint, timestamp);
    checkpoint.expiry =
        timer.schedule(
            () -> abort(id, "expired after " + config.checkpointTimeout()),
            config.checkpointTimeout().toMillis(),
            TimeUnit.MILLISECONDS);
    Failpoints.hit(FailpointNames.CHECKPOINT_TRIGGER);
    gateway.triggerCheckpoint(id, timestamp);
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
    CompletedCheckpoint completed;
    try {
      Failpoints.hit(FailpointNames.COORDINATOR_METADATA_BEFORE);
      completed =
          storage.complete(
              new CheckpointMetadata(
                  id,
                  checkpoint.timestamp,
                  jobName,
                  checkpoint.savepoint,
                  operators,
                  checkpoint.states()));
      Failpoints.hit(FailpointNames.COORDINATOR_METADATA_AFTER);
    } catch (Exception e) {
      LOG.warn("Checkpoint {} of job '{}' could not be stored", id, jobName, e);
      storage.discard(id);
      history.aborted(id, clock.millis(), "its metadata could not be stored: " + e.getMessage());
      gateway.notifyCheckpointAborted(id);
      checkpoint.result.completeExceptionally(e);
      return;
    }
    lastCompletionMillis = clock.millis();
    history.completed(id, lastCompletionMillis);
    // Older checkpoints still pending can no longer matter: this one is newer.
    while (!pending.isEmpty() && pending.firstKey() < id) {
      abort(pending.firstKey(), "subsumed by checkpoint " + id);
    }
    LOG.info(
        "Checkpoint {} of job '{}' complete in {} ms",
        id,
        jobName,
        lastCompletionMillis - checkpoint.timestamp);
    // The checkpoint is complete whether or not its notification arrives: failovers restore it,
    // and the next checkpoint's notification commits what this one's would have.
    listener.onCompleted(completed);
    try {
      Failpoints.hit(FailpointNames.COORDINATOR_NOTIFY_BEFORE);
      gateway.notifyCheckpointComplete(id);
    } catch (RuntimeException e) {
      LOG.warn(
          "Checkpoint {} of job '{}' is complete but the tasks were not told: {}",
          id,
          jobName,
          e.toString());
      // A caller waiting on the result (the final checkpoint) must take another checkpoint,
      // whose notification covers this one.
      checkpoint.result.completeExceptionally(
          new IllegalStateException(
              "Checkpoint " + id + " is complete but its notification was lost", e));
      return;
    }
    checkpoint.result.complete(completed);
  }

  private synchronized void abort(long checkpointId, String reason) {
    PendingCheckpoint checkpoint = pending.remove(checkpointId);
    if (checkpoint == null) {
      return;
    }
    checkpoint.expiry.cancel(false);
    LOG.info("Checkpoint {} of job '{}' aborted: {}", checkpointId, jobName, reason);
    history.aborted(checkpointId, clock.millis(), reason);
    storage.discard(checkpointId);
    if (!shutDown) {
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
    shutDown = true;
    for (Long id : List.copyOf(pending.keySet())) {
      abort(id, "the job attempt ended");
    }
  }
}
