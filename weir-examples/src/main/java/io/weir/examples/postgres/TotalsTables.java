package io.weir.examples.postgres;

import io.weir.api.sink.SinkFunction;
import io.weir.postgres.sink.JdbcSink;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.SQLException;
import java.sql.Statement;

/**
 * The example's two tables, named after a prefix: {@code <prefix>_totals} holds each word's latest
 * aggregate (upserted), {@code <prefix>_updates} one row per input record (inserted), so that a
 * lost or repeated record shows when the rows are counted.
 */
public record TotalsTables(String prefix) {
  public TotalsTables {
    if (!prefix.matches("[A-Za-z_][A-Za-z0-9_]*")) {
      throw new IllegalArgumentException(
          "Option --table needs letters, digits and _ (a SQL name), got '" + prefix + "'");
    }
  }

  public String totals() {
    return prefix + "_totals";
  }

  public String updates() {
    return prefix + "_updates";
  }

  /** Creates the tables when they are missing. */
  public void create(String jdbcUrl) throws SQLException {
    try (Connection connection = DriverManager.getConnection(jdbcUrl);
        Statement statement = connection.createStatement()) {
      statement.execute(
          "CREATE TABLE IF NOT EXISTS "
              + totals()
              + " (word text PRIMARY KEY, updates bigint NOT NULL, total bigint NOT NULL)");
      statement.execute(
          "CREATE TABLE IF NOT EXISTS "
              + updates()
              + " (id bigint NOT NULL, word text NOT NULL, updates bigint NOT NULL)");
    }
  }

  /** The sink: upsert the word's aggregate and insert the update, in one transaction. */
  public SinkFunction<WordTotal> sink(String jdbcUrl, boolean exactlyOnce) {
    return sink(jdbcUrl, exactlyOnce, prefix);
  }

  /** As {@link #sink(String, boolean)}, its transactions named by {@code sinkId}. */
  public SinkFunction<WordTotal> sink(String jdbcUrl, boolean exactlyOnce, String sinkId) {
    JdbcSink.Builder<WordTotal> builder =
        exactlyOnce ? JdbcSink.exactlyOnce(jdbcUrl) : JdbcSink.atLeastOnce(jdbcUrl);
    return builder
        .statement(
            "INSERT INTO "
                + totals()
                + " (word, updates, total) VALUES (?, ?, ?) ON CONFLICT (word) DO UPDATE"
                + " SET updates = excluded.updates, total = excluded.total",
            (statement, total) -> {
              statement.setString(1, total.word());
              statement.setLong(2, total.updates());
              statement.setLong(3, total.total());
            })
        .statement(
            "INSERT INTO " + updates() + " (id, word, updates) VALUES (?, ?, ?)",
            (statement, total) -> {
              statement.setLong(1, total.id());
              statement.setString(2, total.word());
              statement.setLong(3, total.updates());
            })
        .sinkId(sinkId)
        .build();
  }
}
