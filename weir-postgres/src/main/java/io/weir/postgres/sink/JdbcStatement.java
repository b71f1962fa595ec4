package io.weir.postgres.sink;

import java.io.Serializable;
import java.util.Objects;

/**
 * One SQL statement a JDBC sink runs for every record, for example {@code INSERT ... ON CONFLICT
 * (key) DO UPDATE SET ...}, with the binder of its parameters.
 */
public record JdbcStatement<T>(String sql, StatementBinder<? super T> binder)
    implements Serializable {
  public JdbcStatement {
    Objects.requireNonNull(sql, "sql");
    Objects.requireNonNull(binder, "binder");
    if (sql.isBlank()) {
      throw new IllegalArgumentException("SQL statement must not be blank");
    }
  }
}
