package io.weir.runtime.failpoint;

import io.weir.api.checkpoint.CommitObserver;

/** Turns a two-phase-commit sink's commits into the failpoints {@code sink.commit.*}. */
public final class FailpointCommitObserver implements CommitObserver {
  @Override
  public void beforeCommit(long checkpointId) {
    Failpoints.hit(FailpointNames.SINK_COMMIT_BEFORE);
  }

  @Override
  public void afterCommit(long checkpointId) {
    Failpoints.hit(FailpointNames.SINK_COMMIT_AFTER);
  }
}
