package io.weir.api.checkpoint;

import io.weir.api.annotation.PublicEvolving;

/**
 * Watches each commit of a two-phase-commit sink after a checkpoint completed (not the commits of a
 * restore), so that the runtime can run its failpoints {@code sink.commit.before} and {@code
 * sink.commit.after} there, and a test harness can crash between two commits. One per subtask,
 * given by the runtime through {@code RuntimeContext.commitObserver()}; so two jobs in one JVM
 * never share one.
 *
 * <p>Called on the thread that commits: the task thread, or the sink's commit thread when the sink
 * commits in the background ({@code TwoPhaseCommitOptions.Builder#commitInBackground}); one commit
 * at a time, in checkpoint order. An exception thrown here fails the commit as if the commit itself
 * had thrown.
 */
@PublicEvolving
public interface CommitObserver {
  /** Observes nothing. */
  CommitObserver NONE = new CommitObserver() {};

  /** A pending transaction of {@code checkpointId} is about to be committed. */
  default void beforeCommit(long checkpointId) throws Exception {}

  /** A pending transaction of {@code checkpointId} was committed. */
  default void afterCommit(long checkpointId) throws Exception {}
}
