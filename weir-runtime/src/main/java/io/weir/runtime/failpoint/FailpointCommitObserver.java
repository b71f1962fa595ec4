package io.weir.runtime.failpoint;

import io.weir.api.checkpoint.CommitObserver;

/**
 * Turns a two-phase-commit sink's commits into the failpoints {@code sink.commit.*} of its job; it
 * is also how a connector finds its job's failpoints ({@link Failpoints#of(
 * io.weir.api.functions.RuntimeContext)}).
 */
public final class FailpointCommitObserver implements CommitObserver {
  private final Failpoints failpoints;

  public FailpointCommitObserver(Failpoints failpoints) {
    this.failpoints = failpoints;
  }

  /** The failpoints of the job this observer's subtask belongs to. */
  public Failpoints failpoints() {
    return failpoints;
  }

  @Override
  public void beforeCommit(long checkpointId) {
    failpoints.hit(FailpointNames.SINK_COMMIT_BEFORE);
  }

  @Override
  public void afterCommit(long checkpointId) {
    failpoints.hit(FailpointNames.SINK_COMMIT_AFTER);
  }
}
