package io.weir.api.datastream;

import io.weir.api.annotation.Internal;

/**
 * Runs a job. The runtime provides one through {@link java.util.ServiceLoader}; the command line
 * may install another (for example one that only prints the plan) with {@link
 * StreamEnvironment#setContext}.
 */
@Internal
public interface JobExecutor {
  /** Runs the job until it finishes, fails or is cancelled; blocks the calling thread. */
  JobResult execute(StreamPlan plan) throws JobExecutionException;

  /** Starts the job and returns at once; an executor that cannot do this says so. */
  default JobClient executeAsync(StreamPlan plan) throws JobExecutionException {
    throw new UnsupportedOperationException(
        getClass().getSimpleName() + " cannot run a job in the background");
  }
}
