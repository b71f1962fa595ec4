package io.weir.devservers.postgres;

import io.weir.devservers.process.DevServerException;

/** The embedded PostgreSQL server could not be prepared, started or stopped. */
public final class PostgresServerException extends DevServerException {
  private static final long serialVersionUID = 1L;

  public PostgresServerException(String message, String detail, Throwable cause) {
    super(message, detail, cause);
  }

  public PostgresServerException(String message) {
    super(message);
  }
}
