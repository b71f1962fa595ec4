package io.weir.runtime.execution;

/**
 * A job run in this JVM: CREATED -> RUNNING <-> RESTARTING; any of them -> FINISHED, FAILED or
 * CANCELED.
 */
enum LocalJobStatus {
  CREATED,
  RUNNING,
  RESTARTING,
  FINISHED,
  FAILED,
  CANCELED;

  boolean canMoveTo(LocalJobStatus next) {
    return switch (this) {
      case CREATED -> next != CREATED && next != RESTARTING;
      case RUNNING -> next != CREATED && next != RUNNING;
      case RESTARTING -> next != CREATED && next != RESTARTING;
      case FINISHED, FAILED, CANCELED -> false;
    };
  }
}
