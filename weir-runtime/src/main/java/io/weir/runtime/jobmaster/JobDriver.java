package io.weir.runtime.jobmaster;

import io.weir.api.datastream.JobExecutionException;
import io.weir.api.functions.LeaseEpoch;
import io.weir.runtime.checkpoint.CheckpointCoordinator;
import io.weir.runtime.checkpoint.CheckpointHistory;
import io.weir.runtime.checkpoint.CompletedCheckpoint;
import io.weir.runtime.checkpoint.RoutingCheckpointStorage;
import io.weir.runtime.checkpoint.storage.CheckpointDirectoryLease;
import io.weir.runtime.failpoint.Failpoints;
import io.weir.runtime.gateway.SlotPool;
import io.weir.runtime.gateway.TaskManagerGateway;
import io.weir.runtime.graph.JobGraph;
import io.weir.runtime.graph.JobVertex;
import io.weir.runtime.monitor.RecoveryView;
import io.weir.runtime.startup.StartupPhases;
import java.io.IOException;
import java.nio.file.Path;
import java.time.Clock;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Optional;
import java.util.OptionalLong;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A job from start to end, in one JVM or on a cluster alike: CREATED -> RUNNING <-> RESTARTING ->
 * FINISHED, FAILED or CANCELED. Each attempt waits for its slots, settles the sinks of the
 * checkpoint it restores (the job-level recovery step), and restores from the latest completed
 * checkpoint; a failed attempt is followed by another as the job's restart strategy says. {@link
 * #run} runs on the job's own thread; the other methods on any thread.
 */
public final class JobDriver {
  private static final Logger LOG = LoggerFactory.getLogger(JobDriver.class);

  private final String jobId;
  private final JobGraph graph;
  private final Clock clock;
  private final long startMillis;
  private final RoutingCheckpointStorage storage;
  private final Optional<CheckpointDirectoryLease> lease;
  private final CheckpointCoordinator.CompletionListener onCompleted;
  private final CheckpointHistory history = new CheckpointHistory();
  // Armed for the life of the job: hit counts go on across its attempts.
  private final Failpoints failpoints;
  private final AtomicLong completedCheckpoints = new AtomicLong();
  private final AtomicLong checkpointMillis = new AtomicLong();
  // What the job went on without (--accept-data-loss); a later attempt may restore the same
  // checkpoint again, so each loss is kept once, in the order found.
  private final Set<String> acceptedDataLoss = new LinkedHashSet<>();
  private final CompletableFuture<JobState> ended = new CompletableFuture<>();
  // Wakes a job that waits out its restart delay (which may be long) when it is cancelled.
  private final CountDownLatch cancelSignal = new CountDownLatch(1);
  private CheckpointStorages.InitialRestore initialRestore;
  private volatile CompletedCheckpoint latest;
  private volatile JobState state = JobState.CREATED;
  private volatile String message;
  private volatile Throwable failure;
  private volatile int restarts;
  private volatile boolean cancelled;
  private volatile JobAttempt current;
  // What the last recovery step proved of each pending transaction, for the recovery view.
  private volatile List<RecoveryView.SinkTransaction> recoveredTransactions = List.of();
  // The state a stop-with-savepoint ends the job in: FINISHED, or CANCELED for cancel --savepoint.
  private volatile JobState stateAfterStop = JobState.FINISHED;

  /**
   * A job run in this process, holding the lease of its checkpoint directory.
   *
   * @throws JobExecutionException with one line when another run holds the lease
   */
  public JobDriver(String jobId, JobGraph graph, Clock clock) throws JobExecutionException {
    this(jobId, graph, clock, checkpoint -> {}, CheckpointFencing.LEASE);
  }

  /**
   * Takes the lease of the job's checkpoint directory first when {@code fencing} says so, before
   * anything else looks at or changes the job's checkpoints or sinks; {@link #run} gives it up when
   * the job ends.
   *
   * @param onCompleted hears of each completed checkpoint before its notifications go out (where a
   *     highly available job manager records the job's latest checkpoint)
   * @throws JobExecutionException with one line when another run holds the lease
   */
  public JobDriver(
      String jobId,
      JobGraph graph,
      Clock clock,
      CheckpointCoordinator.CompletionListener onCompleted,
      CheckpointFencing fencing)
      throws JobExecutionException {
    this.onCompleted = onCompleted;
    this.jobId = jobId;
    this.graph = graph;
    this.clock = clock;
    this.startMillis = clock.millis();
    this.failpoints = Failpoints.of(graph.config().failpoints());
    this.lease = CheckpointStorages.maybeLease(graph.config(), graph.jobName(), fencing, clock);
    this.storage =
        new RoutingCheckpointStorage(
            CheckpointStorages.forJob(graph.config(), graph.jobName()),
            failpoints,
            lease.map(CheckpointDirectoryLease::leaseEpoch).orElse(LeaseEpoch.NONE));
  }

  /**
   * Finds what the job starts from (see {@link CheckpointStorages}); once, the first call decides.
   *
   * @throws JobExecutionException or IllegalArgumentException with a line for the user
   */
  public synchronized CheckpointStorages.InitialRestore prepare() throws JobExecutionException {
    if (initialRestore == null) {
      initialRestore = CheckpointStorages.initialRestore(graph, storage, OperatorInfos.of(graph));
      latest = initialRestore.checkpoint();
      message = initialRestore.description();
    }
    return initialRestore;
  }

  /**
   * The job's failpoints, armed from its configuration for the life of the job: its coordinator's,
   * and in one JVM also its subtasks'.
   */
  public Failpoints failpoints() {
    return failpoints;
  }

  /** The job's checkpoint storage, which its job manager completes checkpoints in. */
  public RoutingCheckpointStorage storage() {
    return storage;
  }

  /** Slot {@code i} runs subtask {@code i} of every task. */
  public int slotsNeeded() {
    return graph.vertices().stream().mapToInt(JobVertex::parallelism).max().orElse(1);
  }

  /**
   * Runs attempts until the job ends in a final state; on the job's own thread. Says nothing of the
   * end: the caller reports it ({@link #state}, {@link #message}, {@link #failure}).
   */
  public void run(SlotPool slots, ScheduledExecutorService timer) {
    try {
      runAttempts(slots, timer);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      String line = "Job '" + graph.jobName() + "' was interrupted";
      end(JobState.CANCELED, line, new JobExecutionException(line, e));
    } catch (JobExecutionException | RuntimeException e) {
      end(JobState.FAILED, e.toString(), e);
    } finally {
      releaseLease();
      ended.complete(state);
    }
  }

  /**
   * Gives up the lease of the job's checkpoint directory, if it holds one: when the job ends, or
   * when it is given up before it ran. Idempotent.
   */
  public void releaseLease() {
    lease.ifPresent(CheckpointDirectoryLease::release);
  }

  private void runAttempts(SlotPool slotPool, ScheduledExecutorService timer)
      throws InterruptedException, JobExecutionException {
    JobSinkRecovery sinkRecovery =
        new JobSinkRecovery(graph, storage, lease, failpoints, prepare());
    RestartPolicy restartPolicy =
        new RestartPolicy(graph.config().restartStrategy(), graph.config().failuresPerRecord());
    long nextCheckpointId =
        Math.max(
            CheckpointStorages.firstCheckpointId(graph.config(), graph.jobName(), latest),
            firstUnclaimedCheckpointId());
    for (int attempt = 0; ; attempt++) {
      StartupPhases.reached("attempt " + attempt + ": waits for its slots");
      List<TaskManagerGateway> slots = slotPool.awaitSlots(attempt, slotsNeeded(), () -> cancelled);
      if (slots == null) {
        end(JobState.CANCELED, message, null);
        return;
      }
      StartupPhases.reached("attempt " + attempt + ": has its slots");
      StartupPhases.reached("attempt " + attempt + ": sink recovery step starts");
      Throwable recoveryFailure = recordRecovery(sinkRecovery.settle(latest));
      StartupPhases.reached("attempt " + attempt + ": sink recovery step done");
      if (state == JobState.FAILED) {
        return;
      }
      JobAttempt execution =
          new JobAttempt(
              attempt,
              graph,
              latest,
              slots,
              storage,
              timer,
              clock,
              nextCheckpointId,
              this::onCompleted,
              history,
              failpoints);
      current = execution;
      moveTo(JobState.RUNNING);
      // An attempt whose sinks could not be settled deploys nothing and fails as a whole.
      Throwable attemptFailure =
          cancelled ? null : recoveryFailure != null ? recoveryFailure : execution.run();
      sinkRecovery.awaitFreshStart();
      nextCheckpointId = execution.nextCheckpointId();
      if (cancelled) {
        end(JobState.CANCELED, message, null);
        return;
      }
      if (attemptFailure == null) {
        moveTo(execution.stoppedWithSavepoint() ? stateAfterStop : JobState.FINISHED);
        return;
      }
      if (!maybeRestart(restartPolicy, attempt, attemptFailure)) {
        return;
      }
    }
  }

  /**
   * Keeps what the sink recovery step proved and the data loss it accepted, and ends the job when
   * the step fails it: null when every sink is settled, else the failure of the attempt.
   */
  private Throwable recordRecovery(JobSinkRecovery.Outcome outcome) {
    outcome.proven().ifPresent(proven -> recoveredTransactions = proven);
    if (outcome instanceof JobSinkRecovery.Settled settled) {
      synchronized (acceptedDataLoss) {
        acceptedDataLoss.addAll(settled.acceptedDataLoss());
      }
      return null;
    }
    if (outcome instanceof JobSinkRecovery.JobFails jobFails) {
      end(JobState.FAILED, jobFails.line(), jobFails.cause());
      return jobFails.cause();
    }
    return ((JobSinkRecovery.AttemptFails) outcome).failure();
  }

  /** Above every id an earlier owner of the job's checkpoints (a deposed leader) claimed. */
  private long firstUnclaimedCheckpointId() throws JobExecutionException {
    try {
      return storage.firstUnclaimedCheckpointId();
    } catch (IOException e) {
      throw new JobExecutionException(
          "Cannot read the claimed checkpoint ids of job '" + graph.jobName() + "': " + e, e);
    }
  }

  /** Waits out the restart delay, or ends the job; true when another attempt follows. */
  private boolean maybeRestart(RestartPolicy restartPolicy, int attempt, Throwable attemptFailure)
      throws InterruptedException {
    message = attemptFailure.getMessage();
    OptionalLong delay = restartPolicy.onFailure(clock.millis(), attemptFailure);
    if (delay.isEmpty()) {
      String line = restartPolicy.describe() + ": " + attemptFailure.getMessage();
      end(
          JobState.FAILED,
          line,
          new JobExecutionException(
              "Job '"
                  + graph.jobName()
                  + "' failed ("
                  + restartPolicy.describe()
                  + "): "
                  + attemptFailure.getMessage(),
              attemptFailure));
      return false;
    }
    restarts = restartPolicy.restarts();
    LOG.warn(
        "Job '{}' attempt {} failed: {}; restarting in {} ms from {}",
        graph.jobName(),
        attempt,
        attemptFailure.getMessage(),
        delay.getAsLong(),
        latest == null ? "the beginning" : "checkpoint " + latest.checkpointId());
    moveTo(JobState.RESTARTING);
    if (cancelSignal.await(delay.getAsLong(), TimeUnit.MILLISECONDS)) {
      end(JobState.CANCELED, message, null);
      return false;
    }
    return true;
  }

  /** What the last recovery step proved of each pending transaction it settled, in its order. */
  public List<RecoveryView.SinkTransaction> recoveredTransactions() {
    return recoveredTransactions;
  }

  private void onCompleted(CompletedCheckpoint checkpoint) {
    onCompleted.onCompleted(checkpoint);
    latest = checkpoint;
    completedCheckpoints.incrementAndGet();
    checkpointMillis.addAndGet(clock.millis() - checkpoint.timestamp());
  }

  private void end(JobState next, String line, Throwable cause) {
    message = line;
    failure = cause;
    moveTo(next);
  }

  private void moveTo(JobState next) {
    state = state.moveTo(next, jobId);
  }

  /** The running attempt, or null while none runs. */
  private JobAttempt running() {
    JobAttempt attempt = current;
    return attempt != null && state == JobState.RUNNING ? attempt : null;
  }

  /** Takes a savepoint with the running attempt; fails when no attempt runs right now. */
  public CompletableFuture<Path> triggerSavepoint(Path directory) {
    JobAttempt attempt = running();
    if (attempt == null) {
      return CompletableFuture.failedFuture(notRunning());
    }
    return attempt.triggerSavepoint(directory).thenApply(CompletedCheckpoint::location);
  }

  /**
   * Stops the job with a savepoint (see {@link JobAttempt#stopWithSavepoint}); completes with the
   * savepoint's directory once the job has ended, in state {@code endState} (FINISHED, or CANCELED
   * for a cancel with savepoint).
   */
  public CompletableFuture<Path> stopWithSavepoint(Path directory, JobState endState) {
    JobAttempt attempt = running();
    if (attempt == null) {
      return CompletableFuture.failedFuture(notRunning());
    }
    stateAfterStop = endState;
    return attempt
        .stopWithSavepoint(directory)
        .thenCompose(savepoint -> ended.thenApply(end -> savepoint.location()));
  }

  private IllegalStateException notRunning() {
    return new IllegalStateException("Job " + jobId + " is not running (" + state + ")");
  }

  public void cancel() {
    cancelled = true;
    cancelSignal.countDown();
    JobAttempt attempt = current;
    if (attempt != null) {
      attempt.cancel();
    }
  }

  /**
   * Ends the job in this process without touching its checkpoints again, for a job manager that
   * lost its leadership: a new leader carries the job on from them. The current attempt is
   * cancelled; nothing is completed, discarded or pruned in the job's checkpoint storage from now
   * on.
   */
  public void abandon() {
    storage.handOver();
    cancel();
  }

  public String jobId() {
    return jobId;
  }

  public JobGraph graph() {
    return graph;
  }

  public long startMillis() {
    return startMillis;
  }

  public JobState state() {
    return state;
  }

  /**
   * The last line about the job: what it starts from, the failure of its last attempt, or why it
   * failed.
   */
  public String message() {
    return message;
  }

  /** Why the job ended FAILED (or was interrupted), with a line for the user; else null. */
  public Throwable failure() {
    return failure;
  }

  public int restarts() {
    return restarts;
  }

  /** The latest completed checkpoint, or what the job started from. */
  public CompletedCheckpoint latest() {
    return latest;
  }

  /** The current attempt (or the last one, once the job ended), or null before the first. */
  public JobAttempt current() {
    return current;
  }

  /** The job's recent checkpoints across its attempts. */
  public CheckpointHistory history() {
    return history;
  }

  /** Checkpoints completed across all attempts. */
  public long completedCheckpoints() {
    return completedCheckpoints.get();
  }

  /** Trigger to completion, summed over every completed checkpoint. */
  public long checkpointMillis() {
    return checkpointMillis.get();
  }

  public List<String> acceptedDataLoss() {
    synchronized (acceptedDataLoss) {
      return List.copyOf(acceptedDataLoss);
    }
  }

  /**
   * True once the job ended because it stopped with a savepoint (FINISHED by a stop, CANCELED by a
   * cancel with savepoint): nothing is pending. Read after {@link #run} returned.
   */
  public boolean endedWithSavepoint() {
    JobAttempt attempt = current;
    return state.isFinal() && failure == null && attempt != null && attempt.stoppedWithSavepoint();
  }

  /** Completes with the job's final state once it ended. */
  public CompletableFuture<JobState> ended() {
    return ended;
  }
}
