package io.weir.devservers.process;

/**
 * A development server could not be started, reached or stopped. The message is one line naming the
 * cause and the directory, port or process involved; {@link #detail()} holds what helps to dig
 * deeper (usually the tail of the server's log), kept out of the message so users see one line. A
 * stack trace shows the detail too ({@link #toString()}): a test deletes the directory that holds
 * the log, so its report is the only place the cause is left.
 */
public class DevServerException extends RuntimeException {
  private final String detail;

  public DevServerException(String message) {
    this(message, "", null);
  }

  public DevServerException(String message, String detail, Throwable cause) {
    super(message, cause);
    this.detail = detail == null ? "" : detail;
  }

  /** The tail of the server's log or output at the time of the failure; empty when none. */
  public String detail() {
    return detail;
  }

  /** The class and the one-line message, followed by the detail when there is one. */
  @Override
  public String toString() {
    return detail.isBlank() ? super.toString() : super.toString() + "\n" + detail;
  }
}
