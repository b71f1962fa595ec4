package io.weir.runtime.operators;

/**
 * Carries a checked exception through a user-facing interface that cannot throw it (a {@code
 * Collector}); the task unwraps it to report the original cause.
 */
public final class OperatorException extends RuntimeException {
  public OperatorException(Exception cause) {
    super(cause.getMessage(), cause);
  }

  /** The exception itself when unchecked, else wrapped. */
  public static RuntimeException unchecked(Exception e) {
    return e instanceof RuntimeException runtime ? runtime : new OperatorException(e);
  }
}
