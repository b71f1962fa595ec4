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
 * transaction (local path), a rescale 4 -> 1 that must leave none of the prepared transactions of
 * the halt in {@code pg_prepared_xacts} (local and cluster path), two sinks whose ids differ only
 * by {@code .} and {@code _}, and a stop with a savepoint then a resume (cluster path); each
 * verified by querying the tables: every input id once among the committed updates, each word's
 * totals equal to its input's.
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

  @Test
  void when_rescaledFrom4To1WithPreparedTransactions_then_noneIsLeftAndEachRecordIsOnce()
      throws Exception {
    // given: a directory the server's unprivileged user can enter
    Files.setPosixFilePermissions(directory, PosixFilePermissions.fromString("rwxr-xr-x"));

    // when: halted with a prepared transaction in each of 4 sink subtasks, resumed at 1: once
    // with the checkpoint that records them complete, once with it incomplete (no checkpoint
    // records them); each cell fails unless transactions were prepared at the halt and none of
    // them is in pg_prepared_xacts once the restored job settled
    OperationsCells.Run run =
        OperationsCells.run(
            kafka.bootstrapServers(),
            directory,
            "rescale-4-1/postgres-totals/local,rescale-4-1-incomplete/postgres-totals/local",
            "local",
            "--sink",
            "postgres");

    // then
    assertThat(run.cells())
        .containsOnlyKeys(
            "rescale-4-1/postgres-totals/local", "rescale-4-1-incomplete/postgres-totals/local");
    for (JsonNode cell : run.cells().values()) {
      assertThat(cell.get("outcome").asText()).as(cell.toString()).isEqualTo("exactly-once");
      assertThat(cell.get("in").asLong()).as(cell.toString()).isGreaterThan(300);
    }
    OperationsCells.assertEveryCellPassed(run);
  }

  @Test
  void
      when_aClusterJobIsRescaledFrom4To1WithPreparedTransactions_then_noneIsLeftAndEachRecordIsOnce()
          throws Exception {
    // given: a directory the server's unprivileged user can enter
    Files.setPosixFilePermissions(directory, PosixFilePermissions.fromString("rwxr-xr-x"));

    // when: halted with a prepared transaction in each of 4 sink subtasks, with the checkpoint
    // that records them complete and then incomplete, and resumed at 1; each start of the job is
    // a cluster of its own (a job manager, a task manager and a client), the halted one killed
    // before the restored one starts
    OperationsCells.Run run =
        OperationsCells.run(
            kafka.bootstrapServers(),
            directory,
            "rescale-4-1/postgres-totals/cluster,rescale-4-1-incomplete/postgres-totals/cluster",
            "cluster",
            "--sink",
            "postgres");

    // then
    assertThat(run.cells())
        .containsOnlyKeys(
            "rescale-4-1/postgres-totals/cluster",
            "rescale-4-1-incomplete/postgres-totals/cluster");
    for (JsonNode cell : run.cells().values()) {
      assertThat(cell.get("outcome").asText()).as(cell.toString()).isEqualTo("exactly-once");
      assertThat(cell.get("in").asLong()).as(cell.toString()).isGreaterThan(300);
    }
    OperationsCells.assertEveryCellPassed(run);
  }

  @Test
  void when_twoSinkIdsDifferOnlyByDotAndUnderscore_then_eachTableSetHoldsEveryRecordOnce()
      throws Exception {
    // given: a directory the server's unprivileged user can enter
    Files.setPosixFilePermissions(directory, PosixFilePermissions.fromString("rwxr-xr-x"));

    // when: the totals job writes into two table sets through sinks with ids P.twin and P_twin,
    // halts with prepared transactions in both, and is resumed from that checkpoint; the cell
    // fails unless transactions were prepared at the halt and none is left afterwards
    OperationsCells.Run run =
        OperationsCells.run(
            kafka.bootstrapServers(),
            directory,
            "twin-sinks-dot-underscore/postgres-totals",
            "local,cluster",
            "--sink",
            "postgres");

    // then: counted over both table sets, each against the whole input, locally and on a cluster
    assertThat(run.cells())
        .containsOnlyKeys(
            "twin-sinks-dot-underscore/postgres-totals/local",
            "twin-sinks-dot-underscore/postgres-totals/cluster");
    for (JsonNode cell : run.cells().values()) {
      assertThat(cell.get("outcome").asText()).as(cell.toString()).isEqualTo("exactly-once");
      assertThat(cell.get("in").asLong()).as(cell.toString()).isGreaterThan(600);
    }
    OperationsCells.assertEveryCellPassed(run);
  }
}
