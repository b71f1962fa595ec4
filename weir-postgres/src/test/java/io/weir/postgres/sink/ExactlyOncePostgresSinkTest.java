package io.weir.postgres.sink;

import static org.assertj.core.api.Assertions.assertThat;

import io.weir.api.sink.SinkFunction;
import io.weir.postgres.testing.PostgresServerExtension;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;

/** The sinks of this module in one process, against a real server. */
class ExactlyOncePostgresSinkTest {
  @RegisterExtension static final PostgresServerExtension postgres = new PostgresServerExtension();

  @TempDir Path directory;

  @Test
  void when_nextTransactionUpsertsRowsOfAPreparedOne_then_itWaitsForTheCommitInsteadOfLocking()
      throws Exception {
    // given: checkpoint 1 prepared with key 1, not yet committed
    postgres.execute("CREATE TABLE upserted (key bigint PRIMARY KEY, value bigint NOT NULL)");
    SinkDriver driver = SinkDriver.start(upsertOfKeyOne(true), directory.resolve("state"));
    driver.write(10, 11);
    driver.snapshot(1);
    // when: the next transaction writes the same key, then checkpoint 1 completes
    driver.write(20, 21);
    assertThat(valueOfKeyOne()).isEmpty();
    driver.notifyComplete(1);
    assertThat(valueOfKeyOne()).containsExactly(10L);
    driver.snapshot(2);
    driver.notifyComplete(2);
    driver.close();
    // then
    assertThat(valueOfKeyOne()).containsExactly(20L);
  }

  @Test
  void when_startingFresh_then_onlyThisSubtasksPreparedTransactionsAreRolledBack()
      throws Exception {
    // given: a prepared transaction of this sink's subtask 0, and look-alikes of others
    postgres.execute("CREATE TABLE lingering (id bigint NOT NULL)");
    String prefix = "weir.sink-test.lingering.";
    List<String> others = List.of(prefix + "1.4", prefix + "0.4x", "weir.sink-test.lingering2.0.4");
    for (String id : concat(List.of(prefix + "0.4"), others)) {
      prepare("INSERT INTO lingering VALUES (1)", id);
    }
    // when
    SinkDriver.start(postgres.jdbcUrl(), "lingering", directory.resolve("state")).close();
    // then
    try (Connection connection = postgres.connect()) {
      PreparedTransactions prepared = new PreparedTransactions(connection);
      assertThat(prepared.list())
          .map(PreparedTransaction::globalId)
          .containsExactlyInAnyOrderElementsOf(others);
      for (String id : others) {
        prepared.rollback(id);
      }
    }
  }

  @Test
  void when_jobStartsFreshAgainOnTheSameDatabase_then_itsCheckpointIdsMayStartAgain()
      throws Exception {
    // given: a run that committed checkpoint 1
    postgres.execute("CREATE TABLE fresh_again (id bigint NOT NULL)");
    runOneCheckpoint(0, 5, directory.resolve("first-run"));
    // when: a fresh run (a new checkpoint directory) commits its own checkpoint 1
    runOneCheckpoint(5, 10, directory.resolve("second-run"));
    // then
    assertThat(query("SELECT count(DISTINCT id) FROM fresh_again")).containsExactly(10L);
  }

  private void runOneCheckpoint(long from, long to, Path stateFile) throws Exception {
    SinkDriver driver = SinkDriver.start(postgres.jdbcUrl(), "fresh_again", stateFile);
    driver.write(from, to);
    driver.snapshot(1);
    driver.storeCheckpoint(stateFile);
    driver.notifyComplete(1);
    driver.close();
  }

  @Test
  void when_atLeastOnceSinkSnapshots_then_itsRecordsAreCommitted() throws Exception {
    // given
    postgres.execute(
        "CREATE TABLE upserted_at_least_once (key bigint PRIMARY KEY, value bigint NOT NULL)");
    SinkDriver driver =
        SinkDriver.start(
            JdbcSink.<Long>atLeastOnce(postgres.jdbcUrl())
                .statement(
                    "INSERT INTO upserted_at_least_once VALUES (1, ?)"
                        + " ON CONFLICT (key) DO UPDATE SET value = excluded.value",
                    (statement, value) -> statement.setLong(1, value))
                .build(),
            directory.resolve("state"));
    // when
    driver.write(10, 13);
    driver.snapshot(1);
    // then
    assertThat(query("SELECT value FROM upserted_at_least_once")).containsExactly(12L);
    driver.close();
  }

  private static SinkFunction<Long> upsertOfKeyOne(boolean exactlyOnce) {
    JdbcSink.Builder<Long> builder =
        exactlyOnce
            ? JdbcSink.exactlyOnce(postgres.jdbcUrl())
            : JdbcSink.atLeastOnce(postgres.jdbcUrl());
    return builder
        .statement(
            "INSERT INTO upserted VALUES (1, ?) ON CONFLICT (key) DO UPDATE SET value = excluded.value",
            (statement, value) -> statement.setLong(1, value))
        .sinkId("upserted")
        .build();
  }

  private static List<Long> valueOfKeyOne() throws SQLException {
    return query("SELECT value FROM upserted WHERE key = 1");
  }

  private static List<Long> query(String sql) throws SQLException {
    try (Connection connection = postgres.connect();
        Statement statement = connection.createStatement();
        ResultSet result = statement.executeQuery(sql)) {
      List<Long> values = new java.util.ArrayList<>();
      while (result.next()) {
        values.add(result.getLong(1));
      }
      return values;
    }
  }

  private static void prepare(String sql, String globalId) throws SQLException {
    try (Connection connection = postgres.connect();
        Statement statement = connection.createStatement()) {
      connection.setAutoCommit(false);
      statement.execute(sql);
      statement.execute("PREPARE TRANSACTION " + PreparedTransactions.quoted(globalId));
      connection.setAutoCommit(true);
    }
  }

  private static List<String> concat(List<String> first, List<String> second) {
    return java.util.stream.Stream.concat(first.stream(), second.stream()).toList();
  }
}
