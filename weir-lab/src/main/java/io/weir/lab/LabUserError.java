package io.weir.lab;

/**
 * A mistake of the user in what the lab or the bench was asked to do (an option's value, a job that
 * lacks a checkpoint, a topic that never appeared): reported as one line, no stack trace.
 */
public final class LabUserError extends RuntimeException {
  public LabUserError(String message) {
    super(message);
  }

  public LabUserError(String message, Throwable cause) {
    super(message, cause);
  }
}
