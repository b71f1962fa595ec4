package io.weir.cluster.jobmanager;

import io.weir.api.datastream.JobConfig;
import io.weir.api.datastream.JobExecutionException;
import io.weir.cluster.JobCode;
import io.weir.cluster.JobPlans;
import io.weir.cluster.rpc.AttemptId;
import io.weir.cluster.rpc.ClientMessages.JobStatus;
import io.weir.cluster.rpc.JobSubmission;
import io.weir.runtime.checkpoint.CheckpointCoordinator;
import io.weir.runtime.checkpoint.CheckpointHistory;
import io.weir.runtime.checkpoint.CheckpointStats;
import io.weir.runtime.checkpoint.CheckpointStorage;
import io.weir.runtime.checkpoint.CompletedCheckpoint;
import io.weir.runtime.checkpoint.RoutingCheckpointStorage;
import io.weir.runtime.execution.CheckpointStorages;
import io.weir.runtime.execution.JobState;
import io.weir.runtime.execution.RecordCounts;
import io.weir.runtime.execution.RestartPolicy;
import io.weir.runtime.graph.JobGraph;
import io.weir.runtime.graph.JobGraphBuilder;
import io.weir.runtime.recovery.DataLossException;
import io.weir.runtime.recovery.SinkRecoveryStep;
import java.nio.file.Path;
import java.time.Clock;
import java.util.List;
import java.util.OptionalLong;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A job on the cluster, from submission to its end: CREATED -> RUNNING <-> RESTARTING -> FINISHED,
 * FAILED or CANCELED. Each attempt waits for enough slots and restores from the latest completed
 * checkpoint; a failed attempt (a task failed, a task manager was lost) is followed by another.
 */
final class ClusterJob {
  private static final Logger LOG = LoggerFactory.getLogger(ClusterJob.class);

  private final String jobId;
  private final JobSubmission submission;
  private final JobGraph graph;
  private final JobCode code;
  private final CheckpointStorage storage;
  private final Clock clock;
  private final long startMillis;
  private final CheckpointHistory history = new CheckpointHistory();
  private volatile CompletedCheckpoint latest;
  private volatile JobState state = JobState.CREATED;
  private volatile String message;
  private volatile int restarts;
  private volatile boolean cancelled;
  private volatile ClusterAttempt current;
  // What the job went on without (--accept-data-loss); a later attempt may restore the same
  // checkpoint again, so each loss is kept once.
  private final Set<String> acceptedDataLoss = ConcurrentHashMap.newKeySet();
  // The state a stop-with-savepoint ends the job in: FINISHED, or CANCELED for cancel --savepoint.
  private volatile JobState stateAfterStop = JobState.FINISHED;
  private final CompletableFuture<JobState> ended = new CompletableFuture<>();
  // Told of each completed checkpoint before its notifications go out (the HA checkpoint pointer).
  private final CheckpointCoordinator.CompletionListener onCompleted;
  // Wakes a job that waits out its restart delay (which may be long) when it is cancelled.
  private final CountDownLatch cancelSignal = new CountDownLatch(1);

  private ClusterJob(
      String jobId,
      JobSubmission submission,
      JobGraph graph,
      JobCode code,
      CheckpointStorage storage,
      CompletedCheckpoint restore,
      String message,
      Clock clock,
      CheckpointCoordinator.CompletionListener onCompleted) {
    this.onCompleted = onCompleted;
    this.jobId = jobId;
    this.submission = submission;
    this.graph = graph;
    this.code = code;
    this.storage = storage;
    this.latest = restore;
    this.message = message;
    this.clock = clock;
    this.startMillis = clock.millis();
  }

  /**
   * Builds the job from its code and finds what it starts from. The job owns the code from then on
   * and closes it when it ends.
   *
   * @throws IllegalArgumentException or JobExecutionException with a message for the user
   */
  static ClusterJob prepare(String jobId, JobSubmission submission, JobCode code, Clock clock)
      throws JobExecutionException {
    return prepare(jobId, submission, code, clock, checkpoint -> {});
  }

  /** As above; {@code onCompleted} hears of each completed checkpoint before its notifications. */
  static ClusterJob prepare(
      String jobId,
      JobSubmission submission,
      JobCode code,
      Clock clock,
      CheckpointCoordinator.CompletionListener onCompleted)
      throws JobExecutionException {
    JobGraph graph = JobGraphBuilder.build(JobPlans.capture(submission, code));
    JobConfig config = graph.config();
    CheckpointStorage storage =
        new RoutingCheckpointStorage(CheckpointStorages.forJob(config, graph.jobName()));
    CheckpointStorages.InitialRestore restore =
        CheckpointStorages.initialRestore(graph, storage, OperatorInfos.of(graph));
    return new ClusterJob(
        jobId,
        submission,
        graph,
        code,
        storage,
        restore.checkpoint(),
        restore.description(),
        clock,
        onCompleted);
  }

  String jobId() {
    return jobId;
  }

  String jobName() {
    return graph.jobName();
  }

  ClusterAttempt current() {
    return current;
  }

  /**
   * Runs attempts until the job ends, restarting as the job's restart strategy says (as a local run
   * does); on the job's own thread.
   */
  void run(TaskManagerRegistry registry, ScheduledExecutorService timer) {
    Thread thread = Thread.currentThread();
    ClassLoader previous = thread.getContextClassLoader();
    thread.setContextClassLoader(code.loader());
    try {
      runAttempts(registry, timer);
    } finally {
      thread.setContextClassLoader(previous);
      code.close();
      ended.complete(state);
    }
  }

  private void runAttempts(TaskManagerRegistry registry, ScheduledExecutorService timer) {
    RestartPolicy restartPolicy =
        new RestartPolicy(graph.config().restartStrategy(), graph.config().failuresPerRecord());
    try {
      long nextCheckpointId =
          CheckpointStorages.firstCheckpointId(graph.config(), graph.jobName(), latest);
      for (int attempt = 0; ; attempt++) {
        List<RegisteredTaskManager> slots = awaitSlots(registry);
        if (slots == null) {
          moveTo(JobState.CANCELED);
          return;
        }
        Throwable recoveryFailure = recoverSinks();
        if (state == JobState.FAILED) {
          return;
        }
        ClusterAttempt execution =
            new ClusterAttempt(
                new AttemptId(jobId, attempt),
                submission,
                code.jarFile(),
                graph,
                latest,
                slots,
                storage,
                timer,
                clock,
                nextCheckpointId,
                checkpoint -> {
                  onCompleted.onCompleted(checkpoint);
                  latest = checkpoint;
                },
                history);
        current = execution;
        moveTo(JobState.RUNNING);
        // An attempt whose sinks could not be settled deploys nothing and fails as a whole.
        Throwable failure =
            cancelled
                ? new IllegalStateException("cancelled")
                : recoveryFailure != null ? recoveryFailure : execution.run();
        nextCheckpointId = execution.nextCheckpointId();
        if (cancelled) {
          moveTo(JobState.CANCELED);
          return;
        }
        if (failure == null) {
          moveTo(execution.stoppedWithSavepoint() ? stateAfterStop : JobState.FINISHED);
          return;
        }
        message = failure.getMessage();
        OptionalLong delay = restartPolicy.onFailure(clock.millis(), failure);
        if (delay.isEmpty()) {
          message = restartPolicy.describe() + ": " + failure.getMessage();
          LOG.error("Job {} failed {}", jobId, message);
          moveTo(JobState.FAILED);
          return;
        }
        restarts++;
        LOG.warn(
            "Job {} attempt {} failed: {}; restarting in {} ms from {}",
            jobId,
            attempt,
            failure.getMessage(),
            delay.getAsLong(),
            latest == null ? "the beginning" : "checkpoint " + latest.checkpointId());
        moveTo(JobState.RESTARTING);
        if (cancelSignal.await(delay.getAsLong(), TimeUnit.MILLISECONDS)) {
          moveTo(JobState.CANCELED);
          return;
        }
      }
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      moveTo(JobState.CANCELED);
    } catch (RuntimeException | JobExecutionException e) {
      LOG.error("Job {} failed", jobId, e);
      message = e.toString();
      moveTo(JobState.FAILED);
    }
  }

  /**
   * The job-level sink recovery step, before the attempt deploys any task: null when every sink is
   * settled, else the failure of the attempt (the restart strategy decides what follows). Proven
   * data loss fails the job at once.
   */
  private Throwable recoverSinks() throws InterruptedException {
    try {
      acceptedDataLoss.addAll(new SinkRecoveryStep(graph).run(latest));
      return null;
    } catch (InterruptedException e) {
      throw e;
    } catch (DataLossException e) {
      message = e.getMessage();
      LOG.error("Job {} failed: {}", jobId, message);
      moveTo(JobState.FAILED);
      return e;
    } catch (Exception e) {
      return new IllegalStateException("the sinks cannot be recovered: " + e.getMessage(), e);
    }
  }

  private void moveTo(JobState next) {
    state = state.moveTo(next, jobId);
  }

  private List<RegisteredTaskManager> awaitSlots(TaskManagerRegistry registry)
      throws InterruptedException {
    int needed = SlotAssignment.slotsNeeded(graph);
    while (!cancelled) {
      List<RegisteredTaskManager> slots = SlotAssignment.slots(registry.live(), needed);
      if (slots != null) {
        return slots;
      }
      registry.awaitSlots(needed, 1_000);
    }
    return null;
  }

  CompletableFuture<Path> triggerSavepoint(Path directory) {
    ClusterAttempt attempt = current;
    if (attempt == null || state != JobState.RUNNING) {
      return CompletableFuture.failedFuture(
          new IllegalStateException("Job " + jobId + " is not running (" + state + ")"));
    }
    return attempt.triggerSavepoint(directory).thenApply(CompletedCheckpoint::location);
  }

  /**
   * Stops the job with a savepoint (see {@link ClusterAttempt#stopWithSavepoint}); completes with
   * the savepoint's directory once the job has ended, in state {@code endState} (FINISHED, or
   * CANCELED for a cancel with savepoint).
   */
  CompletableFuture<Path> stopWithSavepoint(Path directory, JobState endState) {
    ClusterAttempt attempt = current;
    if (attempt == null || state != JobState.RUNNING) {
      return CompletableFuture.failedFuture(
          new IllegalStateException("Job " + jobId + " is not running (" + state + ")"));
    }
    stateAfterStop = endState;
    return attempt
        .stopWithSavepoint(directory)
        .thenCompose(savepoint -> ended.thenApply(end -> savepoint.location()));
  }

  void cancel() {
    cancelled = true;
    cancelSignal.countDown();
    ClusterAttempt attempt = current;
    if (attempt != null) {
      attempt.cancel();
    }
  }

  /** The job's checkpoint directory, or null when it keeps checkpoints in memory. */
  Path checkpointDirectory() {
    Path root = graph.config().checkpointDirectory();
    return root == null ? null : root.resolve(graph.jobName());
  }

  /** The job's recent checkpoints across its attempts, newest first. */
  List<CheckpointStats> checkpointHistory() {
    return history.newestFirst();
  }

  JobGraph graph() {
    return graph;
  }

  JobStatus status() {
    CompletedCheckpoint checkpoint = latest;
    ClusterAttempt attempt = current;
    RecordCounts records = attempt == null ? RecordCounts.NONE : attempt.recordCounts();
    return new JobStatus(
        jobId,
        graph.jobName(),
        state.name(),
        startMillis,
        checkpoint == null ? -1 : checkpoint.checkpointId(),
        checkpoint == null || checkpoint.location() == null
            ? null
            : checkpoint.location().toString(),
        restarts,
        message,
        records.in(),
        records.out(),
        List.copyOf(acceptedDataLoss));
  }
}
