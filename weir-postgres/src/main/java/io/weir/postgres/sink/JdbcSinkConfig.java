package io.weir.postgres.sink;

import java.io.Serializable;
import java.util.List;
import java.util.Objects;
import java.util.Optional;

/**
 * What a JDBC sink writes and where. Immutable and serializable; built by {@link JdbcSink}.
 *
 * @param jdbcUrl the database, credentials included as URL parameters when needed
 * @param statements run for each record, in this order, batched
 * @param batchSize records buffered per statement before a batch is sent to the database
 * @param sinkId names the sink in transaction ids; null = the operator's name, or its uid when
 *     unnamed
 */
public record JdbcSinkConfig<T>(
    String jdbcUrl, List<JdbcStatement<T>> statements, int batchSize, String sinkId)
    implements Serializable {
  public JdbcSinkConfig {
    Objects.requireNonNull(jdbcUrl, "jdbcUrl");
    statements = List.copyOf(statements);
    if (!jdbcUrl.startsWith("jdbc:postgresql:")) {
      throw new IllegalArgumentException("not a PostgreSQL JDBC URL: " + jdbcUrl);
    }
    if (statements.isEmpty()) {
      throw new IllegalArgumentException("a JDBC sink needs at least one statement");
    }
    if (batchSize < 1) {
      throw new IllegalArgumentException("batch size must be at least 1: " + batchSize);
    }
  }

  Optional<String> explicitSinkId() {
    return Optional.ofNullable(sinkId);
  }
}
