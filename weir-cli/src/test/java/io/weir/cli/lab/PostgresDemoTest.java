package io.weir.cli.lab;

import static org.assertj.core.api.Assertions.assertThat;

import io.weir.cli.WeirCli;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code weir demo --sink postgres}: a real broker, a real PostgreSQL server and two job processes,
 * the first halted right after a sink commit; the demo's exit code is its verdict, from querying
 * the tables (each id once, each word's aggregate equal to the input's).
 */
class PostgresDemoTest {
  @TempDir Path directory;

  @Test
  void when_jobIsHaltedAfterACommitAndRestored_then_tablesHoldEachRecordOnce() throws Exception {
    // given: a directory the server's unprivileged user can enter
    Files.setPosixFilePermissions(directory, PosixFilePermissions.fromString("rwxr-xr-x"));
    // when
    int exitCode =
        WeirCli.run(
            "demo",
            "--sink",
            "postgres",
            "--records",
            "3000",
            "--dir",
            directory.resolve("demo").toString());
    // then
    assertThat(exitCode).isZero();
  }
}
