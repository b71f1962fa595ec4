package io.weir.runtime.execution;

import io.weir.api.datastream.JobConfig;
import io.weir.api.datastream.JobExecutionException;
import io.weir.api.datastream.JobResult;
import io.weir.runtime.checkpoint.CheckpointHistory;
import io.weir.runtime.checkpoint.CheckpointStorage;
import io.weir.runtime.checkpoint.CompletedCheckpoint;
import io.weir.runtime.checkpoint.RoutingCheckpointStorage;
import io.weir.runtime.graph.JobGraph;
import io.weir.runtime.operators.StreamOperator;
import io.weir.runtime.recovery.DataLossException;
import io.weir.runtime.recovery.SinkRecoveryStep;
import io.weir.runtime.task.StreamTask;
import java.time.Clock;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.OptionalLong;
import java.util.Set;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A job from start to end in this JVM: attempts, each restored from the latest completed
 * checkpoint, until one finishes or the restart strategy gives up.
 */
final class JobRun {
  private static final Logger LOG = LoggerFactory.getLogger(JobRun.class);

  private final JobGraph graph;
  private final JobConfig config;
  private final Clock clock;
  private final String jobId;
  private final long startMillis;
  private final CheckpointHistory history = new CheckpointHistory();
  private volatile ExecutionAttempt current;
  private volatile boolean cancelled;
  private volatile LocalJobStatus status = LocalJobStatus.CREATED;
  private volatile int restarts;
  private volatile String lastFailure;
  private volatile CompletedCheckpoint restoredFrom;

  JobRun(JobGraph graph, Clock clock, String jobId) {
    this.graph = graph;
    this.config = graph.config();
    this.clock = clock;
    this.jobId = jobId;
    this.startMillis = clock.millis();
  }

  private synchronized void moveTo(LocalJobStatus next) {
    if (!status.canMoveTo(next)) {
      throw new IllegalStateException(
          "Job '" + graph.jobName() + "' cannot move from " + status + " to " + next);
    }
    status = next;
  }

  String jobId() {
    return jobId;
  }

  JobGraph graph() {
    return graph;
  }

  long startMillis() {
    return startMillis;
  }

  LocalJobStatus status() {
    return status;
  }

  int restarts() {
    return restarts;
  }

  String lastFailure() {
    return lastFailure;
  }

  CheckpointHistory history() {
    return history;
  }

  /** The running attempt, or null before the first and after the last. */
  ExecutionAttempt current() {
    return current;
  }

  /** What the current attempt restored from, or null for a fresh start. */
  CompletedCheckpoint restoredFrom() {
    return restoredFrom;
  }

  /** Takes a savepoint with the running attempt; fails when no attempt runs right now. */
  java.util.concurrent.CompletableFuture<java.nio.file.Path> triggerSavepoint(
      java.nio.file.Path directory) {
    ExecutionAttempt attempt = current;
    if (attempt == null) {
      return java.util.concurrent.CompletableFuture.failedFuture(
          new IllegalStateException("Job '" + graph.jobName() + "' is not running yet"));
    }
    return attempt.triggerSavepoint(directory).thenApply(CompletedCheckpoint::location);
  }

  /**
   * Stops the job with a savepoint taken by the running attempt (see {@link
   * ExecutionAttempt#stopWithSavepoint}); the job then ends successfully.
   */
  java.util.concurrent.CompletableFuture<java.nio.file.Path> stopWithSavepoint(
      java.nio.file.Path directory) {
    ExecutionAttempt attempt = current;
    if (attempt == null) {
      return java.util.concurrent.CompletableFuture.failedFuture(
          new IllegalStateException("Job '" + graph.jobName() + "' is not running yet"));
    }
    return attempt.stopWithSavepoint(directory).thenApply(CompletedCheckpoint::location);
  }

  void cancel() {
    cancelled = true;
    ExecutionAttempt attempt = current;
    if (attempt != null) {
      attempt.cancel();
    }
  }

  JobResult run() throws JobExecutionException {
    try {
      JobResult result = runAttempts();
      moveTo(LocalJobStatus.FINISHED);
      return result;
    } catch (JobExecutionException | RuntimeException | Error e) {
      lastFailure = e.getMessage();
      moveTo(cancelled ? LocalJobStatus.CANCELED : LocalJobStatus.FAILED);
      throw e;
    }
  }

  private JobResult runAttempts() throws JobExecutionException {
    long started = startMillis;
    String jobName = graph.jobName();
    CheckpointStorage storage =
        new RoutingCheckpointStorage(CheckpointStorages.forJob(config, jobName));
    CompletedCheckpoint restore =
        CheckpointStorages.initialRestore(graph, storage, ExecutionAttempt.operatorInfos(graph))
            .checkpoint();
    RestartPolicy restartPolicy =
        new RestartPolicy(config.restartStrategy(), config.failuresPerRecord());
    ScheduledExecutorService timer =
        Executors.newSingleThreadScheduledExecutor(daemon("weir checkpoint timer"));
    ExecutorService snapshotIo = Executors.newFixedThreadPool(2, daemon("weir snapshot io"));
    long nextCheckpointId = CheckpointStorages.firstCheckpointId(config, jobName, restore);
    long completedCheckpoints = 0;
    java.util.concurrent.atomic.AtomicReference<ExecutionAttempt> running =
        new java.util.concurrent.atomic.AtomicReference<>();
    java.util.concurrent.atomic.AtomicLong checkpointsBefore =
        new java.util.concurrent.atomic.AtomicLong();
    if (config.progressInterval() != null) {
      long interval = config.progressInterval().toMillis();
      timer.scheduleAtFixedRate(
          new ProgressReporter(
              jobName,
              running::get,
              () -> {
                ExecutionAttempt current = running.get();
                return checkpointsBefore.get()
                    + (current == null ? 0 : current.completedCheckpoints());
              },
              System.err),
          interval,
          interval,
          java.util.concurrent.TimeUnit.MILLISECONDS);
    }
    long checkpointMillis = 0;
    // A later attempt may restore the same checkpoint again: each loss is reported once.
    Set<String> acceptedDataLoss = new LinkedHashSet<>();
    try {
      for (int attempt = 0; ; attempt++) {
        Throwable recoveryFailure = recoverSinks(restore, acceptedDataLoss);
        ExecutionAttempt execution =
            new ExecutionAttempt(
                graph,
                attempt,
                restore,
                storage,
                timer,
                snapshotIo,
                clock,
                nextCheckpointId,
                history);
        running.set(execution);
        restoredFrom = restore;
        current = execution;
        moveTo(LocalJobStatus.RUNNING);
        if (cancelled) {
          throw new JobExecutionException("Job '" + jobName + "' was cancelled");
        }
        // An attempt whose sinks could not be settled deploys nothing and fails as a whole.
        Throwable failure = recoveryFailure != null ? recoveryFailure : execution.run();
        if (cancelled) {
          throw new JobExecutionException("Job '" + jobName + "' was cancelled");
        }
        nextCheckpointId = execution.nextCheckpointId();
        completedCheckpoints += execution.completedCheckpoints();
        checkpointsBefore.set(completedCheckpoints);
        checkpointMillis += execution.checkpointMillis();
        if (execution.latestCompleted() != null) {
          restore = execution.latestCompleted();
        }
        if (failure == null) {
          return new JobResult(
              jobName,
              Duration.ofMillis(clock.millis() - started),
              counts(execution),
              completedCheckpoints,
              restartPolicy.restarts(),
              Duration.ofMillis(
                  completedCheckpoints == 0 ? 0 : checkpointMillis / completedCheckpoints),
              List.copyOf(acceptedDataLoss));
        }
        OptionalLong delay = restartPolicy.onFailure(clock.millis(), failure);
        if (delay.isEmpty()) {
          throw new JobExecutionException(
              "Job '"
                  + jobName
                  + "' failed ("
                  + restartPolicy.describe()
                  + "): "
                  + failure.getMessage(),
              failure);
        }
        restarts = restartPolicy.restarts();
        lastFailure = failure.getMessage();
        moveTo(LocalJobStatus.RESTARTING);
        LOG.warn(
            "Job '{}' attempt {} failed: {}; restarting in {} ms from {}",
            jobName,
            attempt,
            failure.getMessage(),
            delay.getAsLong(),
            restore == null ? "the beginning" : "checkpoint " + restore.checkpointId());
        Thread.sleep(delay.getAsLong());
      }
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new JobExecutionException("Job '" + jobName + "' was interrupted", e);
    } finally {
      timer.shutdownNow();
      snapshotIo.shutdownNow();
    }
  }

  /**
   * The job-level sink recovery step, before the attempt deploys any task: null when every sink is
   * settled, else the failure of the attempt (the restart strategy decides what follows). Proven
   * data loss ends the job at once.
   */
  private Throwable recoverSinks(CompletedCheckpoint restore, Set<String> acceptedDataLoss)
      throws JobExecutionException, InterruptedException {
    try {
      acceptedDataLoss.addAll(new SinkRecoveryStep(graph).run(restore));
      return null;
    } catch (DataLossException e) {
      throw new JobExecutionException(e.getMessage(), e);
    } catch (InterruptedException e) {
      throw e;
    } catch (Exception e) {
      return new IllegalStateException("the sinks cannot be recovered: " + e.getMessage(), e);
    }
  }

  private static Map<String, JobResult.OperatorCounts> counts(ExecutionAttempt execution) {
    Map<String, long[]> sums = new LinkedHashMap<>();
    for (StreamTask task : execution.tasks()) {
      for (StreamOperator operator : task.operators()) {
        long[] sum = sums.computeIfAbsent(operator.setup().name(), k -> new long[2]);
        sum[0] += operator.recordsIn();
        sum[1] += operator.recordsOut();
      }
    }
    Map<String, JobResult.OperatorCounts> counts = new LinkedHashMap<>();
    sums.forEach((name, sum) -> counts.put(name, new JobResult.OperatorCounts(sum[0], sum[1])));
    return counts;
  }

  private static java.util.concurrent.ThreadFactory daemon(String name) {
    return runnable -> {
      Thread thread = new Thread(runnable, name);
      thread.setDaemon(true);
      return thread;
    };
  }
}
