package io.weir.postgres.sink;

import io.weir.api.sink.SinkFunction;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;

/**
 * Sinks that write records into PostgreSQL with batched JDBC statements.
 *
 * <ul>
 *   <li>{@link #exactlyOnce}: one database transaction per checkpoint and subtask, prepared ({@code
 *       PREPARE TRANSACTION}) at the checkpoint's barrier and committed ({@code COMMIT PREPARED})
 *       once the checkpoint completed; readers see each record's effect exactly once. The server
 *       needs {@code max_prepared_transactions} of at least a few per subtask.
 *   <li>{@link #atLeastOnce}: commits at each barrier; after a failure the records since the last
 *       checkpoint are written again, so the statements should be idempotent (upserts).
 * </ul>
 *
 * <pre>{@code
 * SinkFunction<Total> sink =
 *     JdbcSink.<Total>exactlyOnce("jdbc:postgresql://127.0.0.1:5432/postgres?user=postgres")
 *         .statement(
 *             "INSERT INTO totals (key, total) VALUES (?, ?)"
 *                 + " ON CONFLICT (key) DO UPDATE SET total = excluded.total",
 *             (statement, total) -> {
 *               statement.setString(1, total.key());
 *               statement.setLong(2, total.total());
 *             })
 *         .build();
 * }</pre>
 */
public final class JdbcSink {
  private JdbcSink() {}

  /** An exactly-once sink on PostgreSQL prepared transactions. */
  public static <T> Builder<T> exactlyOnce(String jdbcUrl) {
    return new Builder<>(jdbcUrl, true);
  }

  /** An at-least-once sink that commits at every checkpoint barrier. */
  public static <T> Builder<T> atLeastOnce(String jdbcUrl) {
    return new Builder<>(jdbcUrl, false);
  }

  /** Builds a JDBC sink; {@link #build()} checks the settings. */
  public static final class Builder<T> {
    private static final int DEFAULT_BATCH_SIZE = 500;

    private final String jdbcUrl;
    private final boolean exactlyOnce;
    private final List<JdbcStatement<T>> statements = new ArrayList<>();
    private int batchSize = DEFAULT_BATCH_SIZE;
    private String sinkId;

    private Builder(String jdbcUrl, boolean exactlyOnce) {
      this.jdbcUrl = Objects.requireNonNull(jdbcUrl, "jdbcUrl");
      this.exactlyOnce = exactlyOnce;
    }

    /** Adds a statement run for every record; several run in the order they were added. */
    public Builder<T> statement(String sql, StatementBinder<? super T> binder) {
      statements.add(new JdbcStatement<>(sql, binder));
      return this;
    }

    /** Records buffered per statement before a batch is sent. Default: 500. */
    public Builder<T> batchSize(int records) {
      this.batchSize = records;
      return this;
    }

    /**
     * Names the sink in its prepared transactions' ids ({@code
     * weir.<job>.<sink>.<subtask>.<checkpoint>}). Default: the operator's name, or its uid when the
     * sink has no name. Must stay the same across restarts of the job; two sinks of a job whose ids
     * would be the same are refused when the job is built.
     */
    public Builder<T> sinkId(String id) {
      this.sinkId = Objects.requireNonNull(id, "id");
      return this;
    }

    public SinkFunction<T> build() {
      JdbcSinkConfig<T> config = new JdbcSinkConfig<>(jdbcUrl, statements, batchSize, sinkId);
      return exactlyOnce
          ? new ExactlyOncePostgresSink<>(config)
          : new AtLeastOnceJdbcSink<>(config);
    }
  }
}
