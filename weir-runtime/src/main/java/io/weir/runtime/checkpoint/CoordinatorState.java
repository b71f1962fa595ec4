package io.weir.runtime.checkpoint;

/**
 * STOPPED <-> PERIODIC; STOPPED -> STOPPING_WITH_SAVEPOINT -> STOPPED (the savepoint aborted); any
 * but SHUT_DOWN -> SHUT_DOWN. STOPPED: checkpoints only when asked (before the tasks run, after
 * {@code stopPeriodic}); PERIODIC: triggering at the job's interval; STOPPING_WITH_SAVEPOINT: a
 * stop-with-savepoint was triggered, no periodic checkpoint may follow it; SHUT_DOWN: the attempt
 * ended, nothing is triggered any more and the tasks are not told about aborts.
 */
enum CoordinatorState {
  STOPPED,
  PERIODIC,
  STOPPING_WITH_SAVEPOINT,
  SHUT_DOWN;

  boolean canMoveTo(CoordinatorState next) {
    return switch (this) {
      case STOPPED -> next == PERIODIC || next == STOPPING_WITH_SAVEPOINT || next == SHUT_DOWN;
      case PERIODIC -> next == STOPPED || next == SHUT_DOWN;
      case STOPPING_WITH_SAVEPOINT -> next == STOPPED || next == SHUT_DOWN;
      case SHUT_DOWN -> false;
    };
  }

  /** {@code next}, or an {@link IllegalStateException} when this state may not move there. */
  CoordinatorState moveTo(CoordinatorState next) {
    if (!canMoveTo(next)) {
      throw new IllegalStateException(
          "The checkpoint coordinator cannot move from " + this + " to " + next);
    }
    return next;
  }
}
