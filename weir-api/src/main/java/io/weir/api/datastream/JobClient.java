package io.weir.api.datastream;

import io.weir.api.annotation.PublicEvolving;
import java.nio.file.Path;
import java.util.concurrent.CompletableFuture;

/** A job started with {@link StreamEnvironment#executeAsync}: savepoints, cancel, result. */
@PublicEvolving
public interface JobClient {
  String jobName();

  /**
   * Takes a savepoint into {@code directory} (which must not hold one yet): a checkpoint that is
   * never deleted automatically and from which the job, also with another parallelism, can be
   * restored. Completes with the savepoint's directory.
   */
  CompletableFuture<Path> triggerSavepoint(Path directory);

  /**
   * Stops the job with a savepoint into {@code directory}, leaving nothing pending: the sources
   * emit nothing after the savepoint's barrier, the savepoint completes, every task processes its
   * notification (every two-phase-commit sink commits), then every task ends and {@link
   * #awaitResult} returns normally. Periodic checkpoints stop meanwhile. Completes with the
   * savepoint's directory once the job has ended; fails with a message for the user when the
   * savepoint was aborted (the job then goes on) or the job failed meanwhile (it then restarts from
   * its latest checkpoint or savepoint).
   */
  CompletableFuture<Path> stopWithSavepoint(Path directory);

  /** Stops every task; {@link #awaitResult} then throws. */
  void cancel();

  /** Waits for the job to end. */
  JobResult awaitResult() throws JobExecutionException;
}
