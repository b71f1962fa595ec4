package io.weir.cli.lab;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import io.weir.kafka.testing.KafkaBrokerExtension;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.time.Duration;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code weir lab --sink postgres --operations}: the running totals into a real PostgreSQL server
 * through prepared transactions, on a real broker. A rescale 1 -> 2 with a prepared, un-notified
 * transaction (local path), and a stop with a savepoint then a resume (cluster path); each verified
 * by querying the tables: every input id once among the committed updates, each word's totals equal
 * to its input's.
 */
class OperationsPostgresLabTest {
  @RegisterExtension
  static final KafkaBrokerExtension kafka =
      new KafkaBrokerExtension(config -> config.withStartTimeout(Duration.ofMinutes(3)));

  @TempDir Path directory;

  @Test
  void when_rescaledAndStoppedWithASavepoint_then_theTablesHoldEachRecordOnce() throws Exception {
    // given: a directory the server's unprivileged user can enter
    Files.setPosixFilePermissions(directory, PosixFilePermissions.fromString("rwxr-xr-x"));

    // when
    OperationsCells.Run run =
        OperationsCells.run(
            kafka.bootstrapServers(),
            directory,
            "rescale-1-2/postgres-totals/local,stop-with-savepoint/postgres-totals/cluster",
            "local,cluster",
            "--sink",
            "postgres");

    // then
    assertThat(run.cells())
        .containsOnlyKeys(
            "rescale-1-2/postgres-totals/local", "stop-with-savepoint/postgres-totals/cluster");
    for (JsonNode cell : run.cells().values()) {
      assertThat(cell.get("outcome").asText()).as(cell.toString()).isEqualTo("exactly-once");
      assertThat(cell.get("in").asLong()).as(cell.toString()).isGreaterThan(300);
    }
    OperationsCells.assertEveryCellPassed(run);
  }
}
