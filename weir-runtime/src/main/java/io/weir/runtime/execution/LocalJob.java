package io.weir.runtime.execution;

import io.weir.api.datastream.JobExecutionException;
import io.weir.api.datastream.JobResult;
import io.weir.runtime.graph.JobGraph;
import io.weir.runtime.jobmaster.JobDriver;
import io.weir.runtime.jobmaster.JobState;
import io.weir.runtime.operators.StreamOperator;
import io.weir.runtime.task.StreamTask;
import io.weir.runtime.taskexecutor.InProcessTaskManager;
import java.time.Clock;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.ThreadFactory;
import java.util.concurrent.TimeUnit;

/**
 * A job run in this JVM: its job manager (the {@link JobDriver} every run uses) and one task
 * manager with every slot ({@link InProcessTaskManager}), talking through in-process calls.
 */
final class LocalJob {
  private final JobDriver driver;
  private final Clock clock;
  private final InProcessTaskManager taskManager;
  private final ScheduledExecutorService timer =
      Executors.newSingleThreadScheduledExecutor(daemon("weir checkpoint timer"));
  private final ExecutorService snapshotIo =
      Executors.newFixedThreadPool(2, daemon("weir snapshot io"));

  /**
   * @throws JobExecutionException with one line when another run holds the lease of the job's
   *     checkpoint directory
   */
  LocalJob(String jobId, JobGraph graph, Clock clock) throws JobExecutionException {
    this.driver = new JobDriver(jobId, graph, clock);
    this.clock = clock;
    this.taskManager =
        new InProcessTaskManager(graph, driver.storage(), snapshotIo, clock, driver.failpoints());
  }

  JobDriver driver() {
    return driver;
  }

  /** The subtasks of the current (or last) attempt. */
  List<StreamTask> tasks() {
    return taskManager.tasks();
  }

  /** Runs the job to its end on this thread. */
  JobResult run() throws JobExecutionException {
    String jobName = driver.graph().jobName();
    Duration progressInterval = driver.graph().config().progressInterval();
    if (progressInterval != null) {
      timer.scheduleAtFixedRate(
          new ProgressReporter(
              jobName,
              () -> taskManager.tasks().isEmpty() ? null : taskManager.recordCounts(),
              driver::completedCheckpoints,
              System.err),
          progressInterval.toMillis(),
          progressInterval.toMillis(),
          TimeUnit.MILLISECONDS);
    }
    try {
      if (progressInterval != null) {
        sayWhatItStartsFrom(jobName);
      }
      driver.run(taskManager, timer);
    } finally {
      timer.shutdownNow();
      snapshotIo.shutdownNow();
    }
    return resultOrFailure(jobName);
  }

  /**
   * One line on what a run of the command line restores (a checkpoint or a savepoint, and why that
   * one), since a resubmission without {@code -s} chooses by itself.
   */
  private void sayWhatItStartsFrom(String jobName) {
    try {
      String description = driver.prepare().description();
      if (description != null) {
        System.out.println("job '" + jobName + "' " + description);
      }
    } catch (JobExecutionException | RuntimeException e) {
      // The run that follows fails the job with the same error, reported as every failure is.
    }
  }

  private JobResult resultOrFailure(String jobName) throws JobExecutionException {
    Throwable failure = driver.failure();
    boolean cancelledWithSavepoint =
        driver.state() == JobState.CANCELED && driver.endedWithSavepoint();
    if (driver.state() == JobState.FINISHED || cancelledWithSavepoint) {
      long completed = driver.completedCheckpoints();
      return new JobResult(
          jobName,
          Duration.ofMillis(clock.millis() - driver.startMillis()),
          counts(taskManager.tasks()),
          completed,
          driver.restarts(),
          Duration.ofMillis(completed == 0 ? 0 : driver.checkpointMillis() / completed),
          driver.acceptedDataLoss(),
          taskManager.recordCounts().deadLetters(),
          cancelledWithSavepoint
              ? JobResult.End.CANCELED_WITH_SAVEPOINT
              : driver.endedWithSavepoint()
                  ? JobResult.End.STOPPED_WITH_SAVEPOINT
                  : JobResult.End.FINISHED);
    } else if (failure instanceof JobExecutionException e) {
      throw e;
    } else if (failure instanceof RuntimeException e) {
      throw e;
    } else if (driver.state() == JobState.CANCELED) {
      throw new JobExecutionException("Job '" + jobName + "' was cancelled");
    }
    throw new JobExecutionException("Job '" + jobName + "' failed: " + driver.message(), failure);
  }

  private static Map<String, JobResult.OperatorCounts> counts(List<StreamTask> tasks) {
    Map<String, long[]> sums = new LinkedHashMap<>();
    for (StreamTask task : tasks) {
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

  private static ThreadFactory daemon(String name) {
    return runnable -> {
      Thread thread = new Thread(runnable, name);
      thread.setDaemon(true);
      return thread;
    };
  }
}
