package io.weir.cli.postgres;

import static io.weir.cli.CommandRun.weir;
import static org.assertj.core.api.Assertions.assertThat;

import io.weir.cli.CommandRun;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.Statement;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** {@code weir postgres start | transactions | stop} against a real server. */
class PostgresCommandTest {
  @TempDir Path directory;

  @Test
  void when_aJobIsGoneForGood_then_itsPreparedTransactionIsListedAndRolledBackByHand()
      throws Exception {
    // given: a server, and a transaction prepared by a job that is gone
    Files.setPosixFilePermissions(directory, PosixFilePermissions.fromString("rwxr-xr-x"));
    String serverDirectory = directory.resolve("postgres").toString();
    try {
      CommandRun start = weir("postgres", "start", "--dir", serverDirectory, "--port", "0");
      assertThat(start.exitCode()).as(start.err()).isZero();
      String jdbcUrl = start.out().lines().findFirst().orElseThrow();
      prepare(jdbcUrl, "weir.gone.sink.0.7");
      // when
      CommandRun listed = weir("postgres", "transactions", "--jdbc-url", jdbcUrl);
      CommandRun rolledBack =
          weir(
              "postgres",
              "transactions",
              "--dir",
              serverDirectory,
              "--rollback",
              "weir.gone.sink.0.7");
      CommandRun again =
          weir(
              "postgres",
              "transactions",
              "--dir",
              serverDirectory,
              "--commit",
              "weir.gone.sink.0.7");
      // then
      assertThat(listed.out()).contains("GLOBAL ID").contains("weir.gone.sink.0.7");
      assertThat(rolledBack.exitCode()).isZero();
      assertThat(weir("postgres", "transactions", "--jdbc-url", jdbcUrl).out())
          .contains("no prepared transactions");
      assertThat(again.exitCode()).isEqualTo(1);
      assertThat(again.err().strip())
          .startsWith("weir: no prepared transaction 'weir.gone.sink.0.7'")
          .doesNotContain("\n");
    } finally {
      assertThat(weir("postgres", "stop", "--dir", serverDirectory).out())
          .contains("stopped the PostgreSQL server");
    }
    assertThat(weir("postgres", "stop", "--dir", serverDirectory).out())
        .contains("no PostgreSQL server is running");
  }

  private static void prepare(String jdbcUrl, String globalId) throws Exception {
    try (Connection connection = DriverManager.getConnection(jdbcUrl);
        Statement statement = connection.createStatement()) {
      statement.execute("CREATE TABLE gone (id bigint)");
      connection.setAutoCommit(false);
      statement.execute("INSERT INTO gone VALUES (1)");
      statement.execute("PREPARE TRANSACTION '" + globalId + "'");
      connection.setAutoCommit(true);
    }
  }
}
