package io.weir.api.datastream;

import java.nio.file.Path;
import java.util.concurrent.CompletableFuture;

/** A job started with {@link StreamEnvironment#executeAsync}: savepoints, cancel, result. */
public interface JobClient {
  String jobName();

  /**
   * Takes a savepoint into {@code directory} (which must not hold one yet): a checkpoint that is
   * never deleted automatically and from which the job, also with another parallelism, can be
   * restored. Completes with the savepoint's directory.
   */
  CompletableFuture<Path> triggerSavepoint(Path directory);

  /** Stops every task; {@link #awaitResult} then throws. */
  void cancel();

  /** Waits for the job to end. */
  JobResult awaitResult() throws JobExecutionException;
}
