package io.weir.runtime.jobmaster;

/**
 * How a running attempt comes to its successful end: RUNNING -> FINAL_CHECKPOINT -> TERMINATING;
 * RUNNING -> STOPPING -> TERMINATING; STOPPING -> RUNNING (the stop's savepoint aborted). Moved on
 * by the attempt's thread only.
 *
 * <ul>
 *   <li>RUNNING: the sources read, with periodic checkpoints.
 *   <li>FINAL_CHECKPOINT: every subtask finished its data and the final checkpoint (retried) is to
 *       commit the rest. A stop asked for now fails at once: the job finishes by itself.
 *   <li>STOPPING: a stop-with-savepoint's savepoint is under way. Every subtask may finish its data
 *       meanwhile (its sources ended before the barrier, a source stopped by it never ends): then
 *       that savepoint holds everything and no final checkpoint is taken beside it. When it aborts,
 *       the attempt runs on, and takes its final checkpoint at once if every subtask finished.
 *   <li>TERMINATING: the final checkpoint or the stop's savepoint completed, and every subtask was
 *       asked to end after its notification.
 * </ul>
 */
enum AttemptEnding {
  RUNNING,
  FINAL_CHECKPOINT,
  STOPPING,
  TERMINATING;

  boolean canMoveTo(AttemptEnding next) {
    return switch (this) {
      case RUNNING -> next == FINAL_CHECKPOINT || next == STOPPING;
      case FINAL_CHECKPOINT -> next == TERMINATING;
      case STOPPING -> next == TERMINATING || next == RUNNING;
      case TERMINATING -> false;
    };
  }

  /** {@code next}, or an {@link IllegalStateException} when this may not move there. */
  AttemptEnding moveTo(AttemptEnding next) {
    if (!canMoveTo(next)) {
      throw new IllegalStateException("A job attempt cannot move from " + this + " to " + next);
    }
    return next;
  }
}
