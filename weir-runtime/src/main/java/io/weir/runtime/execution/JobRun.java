package io.weir.runtime.execution;

import io.weir.api.datastream.JobConfig;
import io.weir.api.datastream.JobExecutionException;
import io.weir.api.datastream.JobResult;
import io.weir.runtime.checkpoint.CheckpointHistory;
import io.weir.runtime.checkpoint.CheckpointStorage;
import io.weir.runtime.checkpoint.CompletedCheckpoint;
import io.weir.runtime.checkpoint.RoutingCheckpointStorage;
import io.weir.runtime.checkpoint.storage.CheckpointLayout;
import io.weir.runtime.graph.JobGraph;
import io.weir.runtime.operators.StreamOperator;
import io.weir.runtime.recovery.DataLossException;
import io.weir.runtime.recovery.SinkRecoveryStep;
import io.weir.runtime.task.StreamTask;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.OptionalLong;
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
  private volatile ExecutionAttempt current;
  private volatile boolean cancelled;

  JobRun(JobGraph graph, Clock clock) {
    this.graph = graph;
    this.config = graph.config();
    this.clock = clock;
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

  void cancel() {
    cancelled = true;
    ExecutionAttempt attempt = current;
    if (attempt != null) {
      attempt.cancel();
    }
  }

  JobResult run() throws JobExecutionException {
    long started = clock.millis();
    String jobName = graph.jobName();
    CheckpointStorage storage =
        new RoutingCheckpointStorage(CheckpointStorages.forJob(config, jobName));
    CompletedCheckpoint restore =
        CheckpointStorages.initialRestore(
            config, storage, jobName, ExecutionAttempt.operatorInfos(graph));
    RestartPolicy restartPolicy = new RestartPolicy(config.restartStrategy());
    ScheduledExecutorService timer =
        Executors.newSingleThreadScheduledExecutor(daemon("weir checkpoint timer"));
    ExecutorService snapshotIo = Executors.newFixedThreadPool(2, daemon("weir snapshot io"));
    long nextCheckpointId = firstCheckpointId(storage, restore);
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
    CheckpointHistory history = new CheckpointHistory();
    try {
      for (int attempt = 0; ; attempt++) {
        Throwable recoveryFailure = recoverSinks(restore);
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
        current = execution;
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
                  completedCheckpoints == 0 ? 0 : checkpointMillis / completedCheckpoints));
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
  private Throwable recoverSinks(CompletedCheckpoint restore)
      throws JobExecutionException, InterruptedException {
    try {
      new SinkRecoveryStep(graph).run(restore);
      return null;
    } catch (DataLossException e) {
      throw new JobExecutionException(e.getMessage(), e);
    } catch (InterruptedException e) {
      throw e;
    } catch (Exception e) {
      return new IllegalStateException("the sinks cannot be recovered: " + e.getMessage(), e);
    }
  }

  /**
   * Checkpoint ids only grow: after the restored one, and after any the job's directory still holds
   * (a fresh start must not write a checkpoint older than one that is already there), broken ones
   * included (their id may already name a transaction or part file of a sink).
   */
  private static long firstCheckpointId(CheckpointStorage storage, CompletedCheckpoint restore)
      throws JobExecutionException {
    long[] last = {restore == null ? 0 : restore.checkpointId()};
    try {
      var latest =
          storage.latest(
              (location, reason) ->
                  CheckpointLayout.checkpointIdOf(Path.of(location))
                      .ifPresent(id -> last[0] = Math.max(last[0], id)));
      if (latest.isPresent()) {
        last[0] = Math.max(last[0], latest.get().checkpointId());
      }
    } catch (java.io.IOException e) {
      throw new JobExecutionException("Cannot read " + storage.describe() + ": " + e, e);
    }
    return last[0] + 1;
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
