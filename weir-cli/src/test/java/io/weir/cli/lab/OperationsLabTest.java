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
 * {@code weir lab --operations} on the local path (each job a {@code weir run} process of its own)
 * against one real broker for the class, with small record counts: every operation that a job in a
 * process of its own can undergo — rescales with pre-committed, un-notified transactions (and the
 * control, a restore at the same parallelism), retention past the checkpoint with and without
 * {@code --on-out-of-range earliest}, a fresh start at {@code latest} with a crash before
 * checkpoint 2, partitions added to a job started at {@code latest} and the job killed before it
 * discovered them, a poison record without and with a dead-letter topic, a stop with a savepoint
 * then a resume, a cancel with a savepoint then a plain resubmission (both through the run's REST
 * API, {@code weir stop|cancel --web}), a second runner started while the first runs (refused with
 * one line, then the first killed and the job restarted), {@code --fresh} after a crash with
 * pending transactions (with its checkpoints, and refused without them), two sinks whose prefixes
 * differ only by {@code .} and {@code _}, transactions held past a short timeout by expired
 * checkpoints — each with one of the two jobs, alternating.
 */
// Two cases at a time: each lab mostly waits for its paced input and its jobs' processes, and
// each names its topics, groups and directories apart.
@Execution(ExecutionMode.CONCURRENT)
class OperationsLabTest {
  @RegisterExtension
  static final KafkaBrokerExtension kafka =
      new KafkaBrokerExtension(config -> config.withStartTimeout(Duration.ofMinutes(3)));

  @TempDir Path directory;

  @Test
  void when_rescaleCellsRun_then_theirCountsAddUpAndEveryCellIsExactlyOnce() throws Exception {
    // when
    OperationsCells.Run run =
        OperationsCells.run(
            kafka.bootstrapServers(),
            directory,
            "rescale-1-1/seed,rescale-1-2,rescale-2-4/seed,rescale-4-1/running-count",
            "local");

    // then
    assertThat(run.cells())
        .containsOnlyKeys(
            "rescale-1-1/seed/local",
            "rescale-1-2/seed/local",
            "rescale-1-2/running-count/local",
            "rescale-2-4/seed/local",
            "rescale-4-1/running-count/local");
    for (JsonNode cell : run.cells().values()) {
      assertThat(cell.get("outcome").asText()).as(cell.toString()).isEqualTo("exactly-once");
      // input arrived before the halt, so a pending transaction held records
      assertThat(cell.get("in").asLong()).as(cell.toString()).isGreaterThan(300);
    }
    OperationsCells.assertEveryCellPassed(run);
  }

  @Test
  void when_sourceSideOperationsRun_then_eachIsExactlyOnceOrTheDocumentedLoudFailure()
      throws Exception {
    // when
    OperationsCells.Run run =
        OperationsCells.run(
            kafka.bootstrapServers(),
            directory,
            "retention-while-down/running-count,retention-earliest/seed,"
                + "start-latest-crash/running-count,partitions-added-kill-latest/seed,"
                + "poison-no-dead-letter/seed,poison-dead-letter/running-count",
            "local");

    // then
    assertThat(run.cells())
        .containsOnlyKeys(
            "retention-while-down/running-count/local",
            "retention-earliest/seed/local",
            "start-latest-crash/running-count/local",
            "partitions-added-kill-latest/seed/local",
            "poison-no-dead-letter/seed/local",
            "poison-dead-letter/running-count/local");
    assertThat(run.cells().get("retention-while-down/running-count/local").get("outcome").asText())
        .isEqualTo("loud-failure");
    assertThat(run.cells().get("poison-no-dead-letter/seed/local").get("outcome").asText())
        .isEqualTo("loud-failure");
    assertThat(run.cells().get("poison-dead-letter/running-count/local").get("outcome").asText())
        .isEqualTo("exactly-once");
    assertThat(run.cells().get("retention-earliest/seed/local").get("outcome").asText())
        .isEqualTo("exactly-once");
    assertThat(run.cells().get("start-latest-crash/running-count/local").get("outcome").asText())
        .isEqualTo("exactly-once");
    JsonNode partitionsAdded = run.cells().get("partitions-added-kill-latest/seed/local");
    assertThat(partitionsAdded.get("outcome").asText()).isEqualTo("exactly-once");
    assertThat(partitionsAdded.get("in").asLong()).isPositive();
    OperationsCells.assertEveryCellPassed(run);
  }

  @Test
  void when_aLocalRunStopsOrCancelsWithASavepoint_then_itExitsZeroAndTheNextRunCountsOnExactlyOnce()
      throws Exception {
    // when
    OperationsCells.Run run =
        OperationsCells.run(
            kafka.bootstrapServers(),
            directory,
            "stop-with-savepoint/seed,cancel-with-savepoint/running-count",
            "local");

    // then: each job process exited 0 after its command, and a plain resubmission resumed from
    // the savepoint, saying so (the cell fails otherwise)
    assertThat(run.cells())
        .containsOnlyKeys(
            "stop-with-savepoint/seed/local", "cancel-with-savepoint/running-count/local");
    for (JsonNode cell : run.cells().values()) {
      assertThat(cell.get("outcome").asText()).as(cell.toString()).isEqualTo("exactly-once");
      assertThat(cell.get("in").asLong()).as(cell.toString()).isGreaterThan(300);
    }
    OperationsCells.assertEveryCellPassed(run);
  }

  @Test
  void when_aSecondRunnerStartsWhileTheFirstRuns_then_itIsRefusedAndTheRestartIsExactlyOnce()
      throws Exception {
    // when: the same run started again while the first runs, the first killed, then restarted
    OperationsCells.Run run =
        OperationsCells.run(kafka.bootstrapServers(), directory, "second-runner/seed", "local");

    // then: the second failed with the one line naming the first (the cell fails otherwise)
    assertThat(run.cells()).containsOnlyKeys("second-runner/seed/local");
    JsonNode cell = run.cells().get("second-runner/seed/local");
    assertThat(cell.get("outcome").asText()).as(cell.toString()).isEqualTo("exactly-once");
    assertThat(cell.get("in").asLong()).as(cell.toString()).isGreaterThan(300);
    assertThat(cell.get("duplicated").asLong()).as(cell.toString()).isZero();
    assertThat(cell.get("lost").asLong()).as(cell.toString()).isZero();
    OperationsCells.assertEveryCellPassed(run);
  }

  @Test
  void when_freshStartFollowsACrashWithPendingTransactions_then_itReconcilesAndIsExactlyOnce()
      throws Exception {
    // when: halted after a source committed a checkpoint's offsets to the group while the sinks'
    // transactions of that checkpoint were still pending, then started with --fresh
    OperationsCells.Run run =
        OperationsCells.run(kafka.bootstrapServers(), directory, "fresh-after-crash/seed", "local");

    // then: the pending transactions were committed and the group moved past them, not aborted
    assertThat(run.cells()).containsOnlyKeys("fresh-after-crash/seed/local");
    JsonNode cell = run.cells().get("fresh-after-crash/seed/local");
    assertThat(cell.get("outcome").asText()).as(cell.toString()).isEqualTo("exactly-once");
    assertThat(cell.get("in").asLong()).as(cell.toString()).isGreaterThan(300);
    assertThat(cell.get("lost").asLong()).as(cell.toString()).isZero();
    OperationsCells.assertEveryCellPassed(run);
  }

  @Test
  void when_freshStartFollowsACrashWithoutItsCheckpoints_then_itRefusesInOneLineAndCommitsNothing()
      throws Exception {
    // when: halted with the sinks' transactions pending, the checkpoint directory removed, then
    // started with --fresh
    OperationsCells.Run run =
        OperationsCells.run(
            kafka.bootstrapServers(), directory, "fresh-without-checkpoints/seed", "local");

    // then: the start refused, naming the open transactions and --accept-data-loss (the cell
    // fails on any other line, on exit 0, and on anything it committed)
    assertThat(run.cells()).containsOnlyKeys("fresh-without-checkpoints/seed/local");
    JsonNode cell = run.cells().get("fresh-without-checkpoints/seed/local");
    assertThat(cell.get("outcome").asText()).as(cell.toString()).isEqualTo("loud-failure");
    OperationsCells.assertEveryCellPassed(run);
  }

  @Test
  void when_twoSinksPrefixesDifferOnlyByDotAndUnderscore_then_eachOutputHoldsEveryRecordOnce()
      throws Exception {
    // when: the seed job writes to two sinks, prefixes P.twin and P_twin, halts with both holding
    // pre-committed transactions, and is resumed from that checkpoint
    OperationsCells.Run run =
        OperationsCells.run(
            kafka.bootstrapServers(), directory, "twin-sinks-dot-underscore/seed", "local");

    // then: counted over both outputs, each against the whole input
    assertThat(run.cells()).containsOnlyKeys("twin-sinks-dot-underscore/seed/local");
    JsonNode cell = run.cells().get("twin-sinks-dot-underscore/seed/local");
    assertThat(cell.get("outcome").asText()).as(cell.toString()).isEqualTo("exactly-once");
    assertThat(cell.get("in").asLong()).as(cell.toString()).isGreaterThan(600);
    OperationsCells.assertEveryCellPassed(run);
  }

  @Test
  void
      when_abortedCheckpointsHoldATransactionPastTheTimeout_then_theJobRestartsFirstAndIsExactlyOnce()
          throws Exception {
    // when: a 20 s transaction timeout, and the acknowledgements of checkpoint 3 held as long,
    // so that it and the next checkpoint expire, while input flows
    OperationsCells.Run run =
        OperationsCells.run(
            kafka.bootstrapServers(), directory, "transaction-past-timeout/seed", "local");

    // then: the sinks' age limit failed an attempt before the broker aborted (the cell fails
    // unless the job's log says so), and nothing was lost
    assertThat(run.cells()).containsOnlyKeys("transaction-past-timeout/seed/local");
    JsonNode cell = run.cells().get("transaction-past-timeout/seed/local");
    assertThat(cell.get("outcome").asText()).as(cell.toString()).isEqualTo("exactly-once");
    assertThat(cell.get("in").asLong()).as(cell.toString()).isGreaterThan(300);
    OperationsCells.assertEveryCellPassed(run);
  }
}
