package io.weir.cli.postgres;

import static org.assertj.core.api.Assertions.assertThat;

import io.weir.cli.WeirCli;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
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
      Result start = weir("postgres", "start", "--dir", serverDirectory, "--port", "0");
      assertThat(start.exitCode).as(start.err).isZero();
      String jdbcUrl = start.out.lines().findFirst().orElseThrow();
      prepare(jdbcUrl, "weir.gone.sink.0.7");
      // when
      Result listed = weir("postgres", "transactions", "--jdbc-url", jdbcUrl);
      Result rolledBack =
          weir(
              "postgres",
              "transactions",
              "--dir",
              serverDirectory,
              "--rollback",
              "weir.gone.sink.0.7");
      Result again =
          weir(
              "postgres",
              "transactions",
              "--dir",
              serverDirectory,
              "--commit",
              "weir.gone.sink.0.7");
      // then
      assertThat(listed.out).contains("GLOBAL ID").contains("weir.gone.sink.0.7");
      assertThat(rolledBack.exitCode).isZero();
      assertThat(weir("postgres", "transactions", "--jdbc-url", jdbcUrl).out)
          .contains("no prepared transactions");
      assertThat(again.exitCode).isEqualTo(1);
      assertThat(again.err.strip())
          .startsWith("weir: no prepared transaction 'weir.gone.sink.0.7'")
          .doesNotContain("\n");
    } finally {
      assertThat(weir("postgres", "stop", "--dir", serverDirectory).out)
          .contains("stopped the PostgreSQL server");
    }
    assertThat(weir("postgres", "stop", "--dir", serverDirectory).out)
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

  private record Result(int exitCode, String out, String err) {}

  private static Result weir(String... arguments) {
    PrintStream originalOut = System.out;
    PrintStream originalErr = System.err;
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    ByteArrayOutputStream err = new ByteArrayOutputStream();
    try {
      System.setOut(new PrintStream(out, true, StandardCharsets.UTF_8));
      System.setErr(new PrintStream(err, true, StandardCharsets.UTF_8));
      int exitCode = WeirCli.run(arguments);
      return new Result(
          exitCode, out.toString(StandardCharsets.UTF_8), err.toString(StandardCharsets.UTF_8));
    } finally {
      System.setOut(originalOut);
      System.setErr(originalErr);
    }
  }
}
