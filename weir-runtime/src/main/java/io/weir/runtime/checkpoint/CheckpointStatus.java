package io.weir.runtime.checkpoint;

/**
 * PENDING -> COMPLETED | ABORTED | SUBSUMED. PENDING: triggered, waiting for acknowledgements;
 * COMPLETED: every subtask acknowledged and the metadata is stored (whether or not its notification
 * arrives); ABORTED: declined, expired, its metadata not stored, or its attempt ended; SUBSUMED: a
 * newer checkpoint completed first, so this one can no longer matter.
 */
public enum CheckpointStatus {
  PENDING,
  COMPLETED,
  ABORTED,
  SUBSUMED;

  public boolean canMoveTo(CheckpointStatus next) {
    return this == PENDING && next != PENDING;
  }

  /**
   * {@code next}, when this status may move there.
   *
   * @throws IllegalStateException naming the checkpoint and both statuses otherwise
   */
  public CheckpointStatus moveTo(CheckpointStatus next, long checkpointId) {
    if (!canMoveTo(next)) {
      throw new IllegalStateException(
          "Checkpoint " + checkpointId + " cannot move from " + this + " to " + next);
    }
    return next;
  }
}
