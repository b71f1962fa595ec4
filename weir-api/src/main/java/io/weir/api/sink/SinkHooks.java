package io.weir.api.sink;

import java.util.Objects;

/**
 * Lets the runtime watch each commit of a {@link TwoPhaseCommitSinkFunction}, to run its failpoints
 * {@code sink.commit.before} and {@code sink.commit.after} there (kill the process, throw, or pause
 * just before or after a commit). The API cannot depend on the runtime, so the runtime installs an
 * observer here once per process; failpoints are per process too, so one static slot is enough.
 * Without an installed observer every call is a no-op.
 */
public final class SinkHooks {
  /**
   * Called on the task thread around each commit of a pending transaction after a checkpoint
   * completed (not around the commits of a restore). An exception thrown here fails the commit as
   * if the commit itself had thrown.
   */
  public interface CommitObserver {
    /** A pending transaction of {@code checkpointId} is about to be committed. */
    default void beforeCommit(long checkpointId) throws Exception {}

    /** A pending transaction of {@code checkpointId} was committed. */
    default void afterCommit(long checkpointId) throws Exception {}
  }

  private static final CommitObserver NO_OP = new CommitObserver() {};

  private static volatile CommitObserver observer = NO_OP;

  private SinkHooks() {}

  /** Replaces the process's observer. */
  public static void install(CommitObserver commitObserver) {
    observer = Objects.requireNonNull(commitObserver, "commitObserver");
  }

  /** Back to the no-op observer. */
  public static void reset() {
    observer = NO_OP;
  }

  static CommitObserver observer() {
    return observer;
  }
}
