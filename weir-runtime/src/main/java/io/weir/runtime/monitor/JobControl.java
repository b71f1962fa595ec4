package io.weir.runtime.monitor;

import java.nio.file.Path;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;

/**
 * What the REST API may do to the jobs of a job manager that has no other control channel (the one
 * inside a local run): stop a job with a savepoint, or cancel it. A cluster's job manager takes
 * these requests on its own client protocol and gives the web server {@link #NONE}.
 *
 * <p>Called from any thread, concurrently. Each method returns at once; the future it returns
 * completes once the job has ended. A job id that the job manager does not know gives an empty
 * result, never an exception.
 */
public interface JobControl {
  /** A job manager whose jobs the REST API cannot stop: every request finds no job. */
  JobControl NONE =
      new JobControl() {
        @Override
        public Optional<CompletableFuture<Path>> stopWithSavepoint(
            String jobId, Path directory, SavepointEnd end) {
          return Optional.empty();
        }

        @Override
        public Optional<CompletableFuture<String>> cancel(String jobId) {
          return Optional.empty();
        }
      };

  /**
   * Stops the job with a savepoint into {@code directory}: its sources stop, the savepoint
   * completes, every sink commits, then the job ends in the state {@code end} names. The future
   * completes with the savepoint's directory once the job has ended, or fails with a line for the
   * user (the job is not running, the savepoint was aborted and the job goes on, the job failed
   * meanwhile).
   */
  Optional<CompletableFuture<Path>> stopWithSavepoint(
      String jobId, Path directory, SavepointEnd end);

  /** Cancels the job without a savepoint; the future completes with its final state's name. */
  Optional<CompletableFuture<String>> cancel(String jobId);

  /** How a job ends once its savepoint completed and every sink committed. */
  enum SavepointEnd {
    /** {@code weir stop --savepoint}: the job ends FINISHED. */
    STOP,
    /** {@code weir cancel --savepoint}: the job ends CANCELED, with nothing pending. */
    CANCEL
  }
}
