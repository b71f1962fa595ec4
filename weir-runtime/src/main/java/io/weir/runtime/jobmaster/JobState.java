package io.weir.runtime.jobmaster;

/**
 * CREATED -> RUNNING -> FINISHED; RUNNING -> RESTARTING -> RUNNING; any live state -> FAILED or
 * CANCELED. RESTARTING: an attempt failed and the restart strategy allows another, after its delay.
 * FINISHED, FAILED and CANCELED are final.
 */
public enum JobState {
  CREATED,
  RUNNING,
  RESTARTING,
  FINISHED,
  FAILED,
  CANCELED;

  public boolean isFinal() {
    return this == FINISHED || this == FAILED || this == CANCELED;
  }

  public boolean canMoveTo(JobState next) {
    return switch (this) {
      case CREATED -> next == RUNNING || next == FAILED || next == CANCELED;
      case RUNNING -> next == RESTARTING || next == FINISHED || next == FAILED || next == CANCELED;
      case RESTARTING -> next == RUNNING || next == FAILED || next == CANCELED;
      case FINISHED, FAILED, CANCELED -> false;
    };
  }

  /**
   * {@code next}, when this state may move there.
   *
   * @throws IllegalStateException naming the job and both states otherwise
   */
  public JobState moveTo(JobState next, String job) {
    if (!canMoveTo(next)) {
      throw new IllegalStateException("Job " + job + " cannot move from " + this + " to " + next);
    }
    return next;
  }
}
