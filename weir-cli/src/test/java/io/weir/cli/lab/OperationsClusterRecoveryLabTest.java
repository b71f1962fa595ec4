package io.weir.cli.lab;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import io.weir.kafka.testing.KafkaBrokerExtension;
import java.nio.file.Path;
import java.time.Duration;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.api.parallel.Execution;
import org.junit.jupiter.api.parallel.ExecutionMode;

/**
 * {@code weir lab --operations} on the cluster path, the cells of a job's recovery after a crash
 * (beside {@link OperationsClusterLabTest}, which keeps the operations a user performs on a running
 * job): each start of a job is a job manager, a task manager and a {@code weir run --jobmanager}
 * client of the cell's own, each its own process, and a halt takes the whole deployment down. A
 * rescale 4 -> 1 halted after and before a checkpoint's completion, partitions added to a job
 * started at {@code latest} and the job killed before it discovered them, {@code --fresh} after a
 * crash with pending transactions, two sinks whose prefixes differ only by {@code .} and {@code _},
 * and transactions held past a short timeout by expired checkpoints — each with one of the two
 * jobs, every input id counted in the committed output.
 */
// Two cases at a time: each lab mostly waits for its paced input and its jobs' processes, and
// each names its topics, groups and directories apart.
@Execution(ExecutionMode.CONCURRENT)
class OperationsClusterRecoveryLabTest {
  @RegisterExtension
  static final KafkaBrokerExtension kafka =
      new KafkaBrokerExtension(config -> config.withStartTimeout(Duration.ofMinutes(3)));

  @TempDir Path directory;

  @Test
  void when_aClusterJobIsRescaledFrom4To1AfterAHalt_then_everyOldSubtaskIsSettledExactlyOnce()
      throws Exception {
    // when: halted with a pre-committed transaction in each of 4 sink subtasks, checkpoint 3
    // complete (seed) or all of it acknowledged and its metadata not written (running count),
    // then resumed at parallelism 1 on a new cluster
    OperationsCells.Run run =
        OperationsCells.run(
            kafka.bootstrapServers(),
            directory,
            "rescale-4-1/seed,rescale-4-1-incomplete/running-count",
            "cluster");

    // then
    assertThat(run.cells())
        .containsOnlyKeys(
            "rescale-4-1/seed/cluster", "rescale-4-1-incomplete/running-count/cluster");
    for (JsonNode cell : run.cells().values()) {
      assertThat(cell.get("outcome").asText()).as(cell.toString()).isEqualTo("exactly-once");
      // input arrived before the halt, so the pending transactions held records
      assertThat(cell.get("in").asLong()).as(cell.toString()).isGreaterThan(300);
    }
    OperationsCells.assertEveryCellPassed(run);
  }

  @Test
  void when_partitionsAreAddedAndAClusterJobAtLatestIsKilled_then_theirRecordsAreOutputOnce()
      throws Exception {
    // when: the seed job at latest on 2 partitions, the topic grown to 4 and more records sent to
    // all of them, the cluster killed (SIGKILL) before the job discovered them, then resumed
    OperationsCells.Run run =
        OperationsCells.run(
            kafka.bootstrapServers(), directory, "partitions-added-kill-latest/seed", "cluster");

    // then: the added partitions started at their earliest offset, not at latest
    assertThat(run.cells()).containsOnlyKeys("partitions-added-kill-latest/seed/cluster");
    JsonNode cell = run.cells().get("partitions-added-kill-latest/seed/cluster");
    assertThat(cell.get("outcome").asText()).as(cell.toString()).isEqualTo("exactly-once");
    assertThat(cell.get("in").asLong()).as(cell.toString()).isEqualTo(600);
    OperationsCells.assertEveryCellPassed(run);
  }

  @Test
  void when_aClusterJobStartsFreshAfterACrashWithPendingTransactions_then_itReconciles()
      throws Exception {
    // when: halted after a source committed a checkpoint's offsets to the group while the sinks'
    // transactions of that checkpoint were pending, then submitted with --fresh to a new cluster
    OperationsCells.Run run =
        OperationsCells.run(
            kafka.bootstrapServers(), directory, "fresh-after-crash/seed", "cluster");

    // then: the pending transactions were committed and the group moved past them, not aborted
    assertThat(run.cells()).containsOnlyKeys("fresh-after-crash/seed/cluster");
    JsonNode cell = run.cells().get("fresh-after-crash/seed/cluster");
    assertThat(cell.get("outcome").asText()).as(cell.toString()).isEqualTo("exactly-once");
    assertThat(cell.get("in").asLong()).as(cell.toString()).isGreaterThan(300);
    assertThat(cell.get("lost").asLong()).as(cell.toString()).isZero();
    OperationsCells.assertEveryCellPassed(run);
  }

  @Test
  void when_twoSinksOfAClusterJobDifferOnlyByDotAndUnderscore_then_eachOutputHoldsEachRecordOnce()
      throws Exception {
    // when: the seed job writes to two sinks, prefixes P.twin and P_twin, halts with both holding
    // pre-committed transactions, and is resumed from that checkpoint on a new cluster
    OperationsCells.Run run =
        OperationsCells.run(
            kafka.bootstrapServers(), directory, "twin-sinks-dot-underscore/seed", "cluster");

    // then: counted over both outputs, each against the whole input
    assertThat(run.cells()).containsOnlyKeys("twin-sinks-dot-underscore/seed/cluster");
    JsonNode cell = run.cells().get("twin-sinks-dot-underscore/seed/cluster");
    assertThat(cell.get("outcome").asText()).as(cell.toString()).isEqualTo("exactly-once");
    assertThat(cell.get("in").asLong()).as(cell.toString()).isGreaterThan(600);
    OperationsCells.assertEveryCellPassed(run);
  }

  @Test
  void
      when_abortedCheckpointsHoldAClusterJobsTransactionPastTheTimeout_then_itRestartsFirstAndIsExactlyOnce()
          throws Exception {
    // when: a 20 s transaction timeout, and the acknowledgements of checkpoint 3 held as long,
    // so that it and the next checkpoint expire, while input flows
    OperationsCells.Run run =
        OperationsCells.run(
            kafka.bootstrapServers(), directory, "transaction-past-timeout/seed", "cluster");

    // then: the sinks' age limit failed an attempt before the broker aborted (the cell fails
    // unless the job manager's log says so), and nothing was lost
    assertThat(run.cells()).containsOnlyKeys("transaction-past-timeout/seed/cluster");
    JsonNode cell = run.cells().get("transaction-past-timeout/seed/cluster");
    assertThat(cell.get("outcome").asText()).as(cell.toString()).isEqualTo("exactly-once");
    assertThat(cell.get("in").asLong()).as(cell.toString()).isGreaterThan(300);
    OperationsCells.assertEveryCellPassed(run);
  }
}
