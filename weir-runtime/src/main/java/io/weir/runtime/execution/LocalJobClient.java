package io.weir.runtime.execution;

import io.weir.api.datastream.JobClient;
import io.weir.api.datastream.JobExecutionException;
import io.weir.api.datastream.JobResult;
import io.weir.runtime.jobmaster.JobDriver;
import io.weir.runtime.jobmaster.JobState;
import java.nio.file.Path;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;

/** A job running in the background of this JVM. */
final class LocalJobClient implements JobClient {
  private final String jobName;
  private final JobDriver driver;
  private final CompletableFuture<JobResult> result;

  LocalJobClient(String jobName, JobDriver driver, CompletableFuture<JobResult> result) {
    this.jobName = jobName;
    this.driver = driver;
    this.result = result;
  }

  @Override
  public String jobName() {
    return jobName;
  }

  @Override
  public CompletableFuture<Path> triggerSavepoint(Path directory) {
    return driver.triggerSavepoint(directory);
  }

  @Override
  public CompletableFuture<Path> stopWithSavepoint(Path directory) {
    return driver.stopWithSavepoint(directory, JobState.FINISHED);
  }

  @Override
  public void cancel() {
    driver.cancel();
  }

  @Override
  public JobResult awaitResult() throws JobExecutionException {
    try {
      return result.get();
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new JobExecutionException("Interrupted while waiting for job '" + jobName + "'", e);
    } catch (ExecutionException e) {
      if (e.getCause() instanceof JobExecutionException failure) {
        throw failure;
      }
      throw new JobExecutionException(
          "Job '" + jobName + "' failed: " + e.getCause(), e.getCause());
    }
  }
}
