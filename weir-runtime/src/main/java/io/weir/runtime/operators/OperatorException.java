package io.weir.runtime.operators;

/**
 * Carries a checked exception through a user-facing interface that cannot throw it (a {@code
 * Collector}); the task unwraps it to report the original cause.
 */
public final class OperatorException extends RuntimeException {
  public OperatorException(Exception cause) {
    super(cause.getMessage(), cause);
  }
}
