package io.weir.postgres.sink;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.weir.api.sink.TransactionCommitException;
import io.weir.postgres.testing.PostgresServerExtension;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * The exactly-once sink against a real server, with a real process killed (halted) at each step of
 * the two-phase commit, then restored the way a job restores: from the last completed checkpoint,
 * or fresh when none completed, replaying what came after it. Counting the table proves each id is
 * there exactly once.
 */
class ExactlyOncePostgresSinkCrashTest {
  private static final int RECORDS = 50;

  @RegisterExtension static final PostgresServerExtension postgres = new PostgresServerExtension();

  @TempDir Path directory;

  @ParameterizedTest
  @ValueSource(
      strings = {
        "checkpoint.trigger",
        "task.snapshot.after",
        "sink.commit.before",
        "sink.commit.after"
      })
  void when_processHaltsAtAStepOfTheCommit_then_restoreLeavesEachIdOnce(String failpoint)
      throws Exception {
    // given
    String table = createTable("halt_" + failpoint.replace('.', '_'));
    Path stateFile = directory.resolve("sink-state");
    // when
    int exitCode = runUntilHalt(table, stateFile, failpoint);
    restoreAndFinish(table, stateFile);
    // a restore of the last checkpoint finds its transaction committed: quiet, nothing added
    SinkDriver.start(postgres.jdbcUrl(), table, stateFile).close();
    // then
    assertThat(exitCode).isEqualTo(137);
    assertThat(idCounts(table)).containsExactly(2L * RECORDS, 2L * RECORDS, 2L * RECORDS - 1);
    assertThat(preparedTransactionsOf(table)).isEmpty();
  }

  @Test
  void when_preparedTransactionWasRolledBackByHand_then_restoreFailsNamingTheLoss()
      throws Exception {
    // given: checkpoint 1 completed, its transaction prepared, then rolled back by someone
    String table = createTable("rolled_back");
    Path stateFile = directory.resolve("sink-state");
    runUntilHalt(table, stateFile, "sink.commit.before");
    List<String> prepared = preparedTransactionsOf(table);
    try (Connection connection = postgres.connect()) {
      assertThat(new PreparedTransactions(connection).rollback(prepared.get(0))).isTrue();
    }
    // when / then
    assertThatThrownBy(() -> SinkDriver.start(postgres.jdbcUrl(), table, stateFile))
        .isInstanceOf(TransactionCommitException.class)
        .hasMessageContaining(prepared.get(0))
        .hasMessageContaining("its records are lost");
  }

  private void restoreAndFinish(String table, Path stateFile) throws Exception {
    long next = Files.exists(stateFile) ? RECORDS : 0;
    SinkDriver driver = SinkDriver.start(postgres.jdbcUrl(), table, stateFile);
    driver.write(next, 2L * RECORDS);
    driver.snapshot(2);
    driver.storeCheckpoint(stateFile);
    driver.notifyComplete(2);
    driver.close();
  }

  private int runUntilHalt(String table, Path stateFile, String failpoint) throws Exception {
    String java = Path.of(System.getProperty("java.home"), "bin", "java").toString();
    List<String> command =
        List.of(
            java,
            "-Xmx128m",
            "-XX:TieredStopAtLevel=1",
            "-XX:+UseSerialGC",
            "-Dweir.failpoints=" + failpoint + "=halt",
            "-cp",
            System.getProperty("java.class.path"));
    List<String> arguments =
        List.of(
            CrashingSinkProcess.class.getName(),
            postgres.jdbcUrl(),
            table,
            stateFile.toString(),
            Integer.toString(RECORDS));
    Process process =
        new ProcessBuilder(concat(command, arguments))
            .redirectErrorStream(true)
            .redirectOutput(directory.resolve("process.log").toFile())
            .start();
    if (!process.waitFor(60, TimeUnit.SECONDS)) {
      process.destroyForcibly();
      throw new AssertionError("the sink process did not end within 60 s");
    }
    return process.exitValue();
  }

  private static List<String> concat(List<String> first, List<String> second) {
    return java.util.stream.Stream.concat(first.stream(), second.stream()).toList();
  }

  private static String createTable(String name) throws SQLException {
    try (Connection connection = postgres.connect();
        Statement statement = connection.createStatement()) {
      statement.execute("CREATE TABLE " + name + " (id bigint NOT NULL)");
    }
    return name;
  }

  /** count(*), count(DISTINCT id), max(id). */
  private static List<Long> idCounts(String table) throws SQLException {
    try (Connection connection = postgres.connect();
        Statement statement = connection.createStatement();
        ResultSet result =
            statement.executeQuery(
                "SELECT count(*), count(DISTINCT id), coalesce(max(id), -1) FROM " + table)) {
      result.next();
      return List.of(result.getLong(1), result.getLong(2), result.getLong(3));
    }
  }

  private static List<String> preparedTransactionsOf(String table) throws SQLException {
    try (Connection connection = postgres.connect()) {
      return new PreparedTransactions(connection)
          .list().stream()
              .map(PreparedTransaction::globalId)
              .filter(id -> id.startsWith(TransactionIds.sinkPrefix("sink-test", table)))
              .toList();
    }
  }
}
