package io.weir.runtime.checkpoint;

/**
 * What a triggered checkpoint is, and what the sources do after its barrier.
 *
 * <ul>
 *   <li>{@link #CHECKPOINT}: kept in the job's checkpoint directory under its retention; the
 *       sources go on.
 *   <li>{@link #SAVEPOINT}: kept in a directory the user chose, never deleted automatically; the
 *       sources go on.
 *   <li>{@link #STOP_SAVEPOINT}: a savepoint after whose barrier the sources emit nothing more, so
 *       that once it completes and every sink committed, the job can end with nothing pending.
 * </ul>
 */
public enum CheckpointKind {
  CHECKPOINT,
  SAVEPOINT,
  STOP_SAVEPOINT;

  public boolean isSavepoint() {
    return this != CHECKPOINT;
  }

  /** True when sources stop emitting after this checkpoint's barrier (until it is aborted). */
  public boolean stopsSources() {
    return this == STOP_SAVEPOINT;
  }
}
