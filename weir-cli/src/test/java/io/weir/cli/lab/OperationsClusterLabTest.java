package io.weir.cli.lab;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import io.weir.kafka.testing.KafkaBrokerExtension;
import java.nio.file.Path;
import java.time.Duration;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code weir lab --operations} on the cluster path against one real broker for the class: each
 * start of a job is a job manager, a task manager and a {@code weir run --jobmanager} client of the
 * cell's own, each its own process; a failpoint halt in either cluster process is followed by
 * SIGKILL of the rest. Every operation once, with one of the two jobs, alternating: a rescale with
 * pre-committed, un-notified transactions, stop with a savepoint then resume, cancel with a
 * savepoint then a plain resubmission, retention past the checkpoint while down, a fresh start at
 * {@code latest} with a crash before checkpoint 2, a poison record without and with a dead-letter
 * topic (the dead letter once in its topic, and counted by the job: its client's progress line
 * shows {@code dead-letters=1}, which the task managers' heartbeats carried to the job manager), a
 * second runner of a running job (a second cluster on the same checkpoint directory), refused by
 * the lease its lone job manager holds, and, on a highly available cluster of the cell's own, a
 * leader frozen and woken after its successor checkpointed.
 */
class OperationsClusterLabTest {
  @RegisterExtension
  static final KafkaBrokerExtension kafka =
      new KafkaBrokerExtension(config -> config.withStartTimeout(Duration.ofMinutes(3)));

  @TempDir Path directory;

  @Test
  void when_everyOperationRunsOnACluster_then_eachIsExactlyOnceOrTheDocumentedLoudFailure()
      throws Exception {
    // when
    OperationsCells.Run run =
        OperationsCells.run(
            kafka.bootstrapServers(),
            directory,
            "rescale-1-2/running-count,stop-with-savepoint/seed,"
                + "cancel-with-savepoint/running-count,retention-while-down/seed,"
                + "start-latest-crash/seed,poison-no-dead-letter/running-count,"
                + "poison-dead-letter/seed,second-runner/running-count",
            "cluster");

    // then
    assertThat(run.cells())
        .containsOnlyKeys(
            "rescale-1-2/running-count/cluster",
            "stop-with-savepoint/seed/cluster",
            "cancel-with-savepoint/running-count/cluster",
            "retention-while-down/seed/cluster",
            "start-latest-crash/seed/cluster",
            "poison-no-dead-letter/running-count/cluster",
            "poison-dead-letter/seed/cluster",
            "second-runner/running-count/cluster");
    assertThat(run.cells().get("retention-while-down/seed/cluster").get("outcome").asText())
        .isEqualTo("loud-failure");
    assertThat(
            run.cells().get("poison-no-dead-letter/running-count/cluster").get("outcome").asText())
        .isEqualTo("loud-failure");
    assertThat(run.cells().get("poison-dead-letter/seed/cluster").get("outcome").asText())
        .isEqualTo("exactly-once");
    OperationsCells.assertEveryCellPassed(run);
  }

  @Test
  void when_aClusterJobStartsFreshWithoutItsCheckpoints_then_itIsRefusedInOneLine()
      throws Exception {
    // when: halted with the sinks' transactions pending, the checkpoint directory removed, then
    // submitted again with --fresh to a new cluster on that directory
    OperationsCells.Run run =
        OperationsCells.run(
            kafka.bootstrapServers(), directory, "fresh-without-checkpoints/seed", "cluster");

    // then
    assertThat(run.cells()).containsOnlyKeys("fresh-without-checkpoints/seed/cluster");
    JsonNode cell = run.cells().get("fresh-without-checkpoints/seed/cluster");
    assertThat(cell.get("outcome").asText()).as(cell.toString()).isEqualTo("loud-failure");
    OperationsCells.assertEveryCellPassed(run);
  }

  @Test
  void when_aDeposedLeaderIsWokenAfterItsSuccessorCheckpointed_then_itStandsByAndTheJobIsExact()
      throws Exception {
    // when: on a highly available cluster, the leader frozen (SIGSTOP) once the job completed a
    // checkpoint, and woken (SIGCONT) once the standby leads, runs the job and completed one of its
    // own; the cell fails unless the woken one logs that it was deposed and stands by
    OperationsCells.Run run =
        OperationsCells.run(
            kafka.bootstrapServers(), directory, "deposed-leader-woken/seed", "cluster");

    // then
    assertThat(run.cells()).containsOnlyKeys("deposed-leader-woken/seed/cluster");
    JsonNode cell = run.cells().get("deposed-leader-woken/seed/cluster");
    assertThat(cell.get("outcome").asText()).as(cell.toString()).isEqualTo("exactly-once");
    assertThat(cell.get("in").asLong()).as(cell.toString()).isGreaterThan(300);
    OperationsCells.assertEveryCellPassed(run);
  }
}
