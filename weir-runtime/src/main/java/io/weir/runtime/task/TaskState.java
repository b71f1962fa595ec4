package io.weir.runtime.task;

/**
 * CREATED -> RUNNING -> DATA_FINISHED -> TERMINATED; any live state -> FAILED or CANCELED.
 * DATA_FINISHED: all input processed, still taking the final checkpoint and its notifications.
 * RUNNING -> TERMINATED: stopped with a savepoint, whose notification the task processed first.
 */
public enum TaskState {
  CREATED,
  RUNNING,
  DATA_FINISHED,
  TERMINATED,
  FAILED,
  CANCELED;

  boolean canMoveTo(TaskState next) {
    return switch (this) {
      case CREATED -> next == RUNNING || next == FAILED || next == CANCELED;
      case RUNNING ->
          next == DATA_FINISHED || next == TERMINATED || next == FAILED || next == CANCELED;
      case DATA_FINISHED -> next == TERMINATED || next == FAILED || next == CANCELED;
      case TERMINATED, FAILED, CANCELED -> false;
    };
  }
}
