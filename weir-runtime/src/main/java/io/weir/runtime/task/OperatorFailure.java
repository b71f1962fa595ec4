package io.weir.runtime.task;

/** A failure of one operator, named with its subtask: {@code 'Map' (subtask 1/2)}. */
public final class OperatorFailure extends Exception {
  private final String operator;

  public OperatorFailure(String operator, Throwable cause) {
    super("operator " + operator + " failed: " + describe(cause), cause);
    this.operator = operator;
  }

  public String operator() {
    return operator;
  }

  /** Wraps a failure thrown by the named operator, unless a deeper operator already did. */
  static OperatorFailure of(String operator, Throwable cause) {
    Throwable unwrapped = cause;
    if (cause instanceof io.weir.runtime.operators.OperatorException && cause.getCause() != null) {
      unwrapped = cause.getCause();
    }
    return unwrapped instanceof OperatorFailure failure
        ? failure
        : new OperatorFailure(operator, unwrapped);
  }

  private static String describe(Throwable cause) {
    String message = cause.getMessage();
    return cause.getClass().getSimpleName() + (message == null ? "" : ": " + message);
  }
}
