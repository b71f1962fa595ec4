package io.weir.runtime.failpoint;

import io.weir.api.checkpoint.CommitObserver;
import io.weir.runtime.startup.BesideStartWork;

/**
 * Turns a two-phase-commit sink's commits into the failpoints {@code sink.commit.*} of its job; it
 * is also how a connector finds its job's failpoints ({@link Failpoints#of(
 * io.weir.api.functions.RuntimeContext)}) and its attempt's {@link BesideStartWork}.
 */
public final class FailpointCommitObserver implements CommitObserver, BesideStartWork.Carrier {
  private final Failpoints failpoints;
  private final BesideStartWork besideStartWork;

  /** For a subtask whose work beside its start nothing awaits. */
  public FailpointCommitObserver(Failpoints failpoints) {
    this(failpoints, new BesideStartWork());
  }

  public FailpointCommitObserver(Failpoints failpoints, BesideStartWork besideStartWork) {
    this.failpoints = failpoints;
    this.besideStartWork = besideStartWork;
  }

  @Override
  public BesideStartWork besideStartWork() {
    return besideStartWork;
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
