package io.weir.cli.error;

/** A mistake of the user (an option, a file, an address): printed as one line, no stack trace. */
public final class UserError extends RuntimeException {
  public UserError(String message) {
    super(message);
  }

  public UserError(String message, Throwable cause) {
    super(message, cause);
  }
}
