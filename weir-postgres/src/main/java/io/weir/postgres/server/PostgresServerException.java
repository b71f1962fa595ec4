package io.weir.postgres.server;

/**
 * The embedded PostgreSQL server could not be prepared, started or stopped. The message is one line
 * for people; {@link #detail()} holds the tail of the server's log when there is one.
 */
public final class PostgresServerException extends RuntimeException {
  private static final long serialVersionUID = 1L;

  private final String detail;

  public PostgresServerException(String message, String detail, Throwable cause) {
    super(message, cause);
    this.detail = detail;
  }

  public PostgresServerException(String message) {
    this(message, "", null);
  }

  /** The tail of the server's log, or an empty string. */
  public String detail() {
    return detail;
  }
}
