package io.weir.examples;

import static org.assertj.core.api.Assertions.assertThat;

import io.weir.runtime.failpoint.FailpointNames;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * The seed job writing to the FileSink, halted like {@code kill -9} at every failpoint of the
 * checkpoint protocol, then started again without {@code -s}: it resumes from its latest completed
 * checkpoint and, once it finished, every input record was committed exactly once.
 */
@Timeout(180)
class SeedJobFailpointTest {
  private static final int RECORDS = 20_000;

  /** Records per second per subtask: about four seconds of input, many checkpoints at 200 ms. */
  private static final int RATE = 5_000;

  /**
   * The hit to halt on: mid-run normally; on a loaded machine, where the first checkpoint alone can
   * take seconds, at worst the final checkpoint, which passes every failpoint too.
   */
  private static final int HALT_ON_HIT = 2;

  private static final List<String> FAILPOINTS =
      List.of(
          FailpointNames.CHECKPOINT_TRIGGER,
          FailpointNames.TASK_SNAPSHOT_AFTER,
          FailpointNames.TASK_ACK_BEFORE,
          FailpointNames.COORDINATOR_METADATA_BEFORE,
          FailpointNames.COORDINATOR_METADATA_AFTER,
          FailpointNames.COORDINATOR_NOTIFY_BEFORE,
          FailpointNames.SINK_COMMIT_BEFORE,
          FailpointNames.SINK_COMMIT_AFTER);

  @TempDir Path work;

  static Stream<Arguments> failpointsAndPlans() {
    List<Arguments> cases = new ArrayList<>();
    for (String failpoint : FAILPOINTS) {
      cases.add(Arguments.of(failpoint, false));
      cases.add(Arguments.of(failpoint, true));
    }
    return cases.stream();
  }

  @ParameterizedTest(name = "{0}, chained={1}")
  @MethodSource("failpointsAndPlans")
  void when_haltedAtFailpointAndRestarted_then_everyRecordIsCommittedOnce(
      String failpoint, boolean chained) throws Exception {
    // given: parallelism 1 makes the keyed plan two tasks and the chained plan one
    SeedJobProcess job = new SeedJobProcess(work);
    List<String> arguments = arguments(chained);

    // when: the first run halts at the failpoint, the second resumes from its checkpoint
    SeedJobProcess.Outcome halted = job.run(failpoint + "=halt@" + HALT_ON_HIT, arguments);
    SeedJobProcess.Outcome resumed = job.run("", arguments);

    // then
    assertThat(halted.exitCode()).as(halted.output()).isEqualTo(137);
    assertThat(halted.output()).contains("weir: failpoint " + failpoint + " hit: halting");
    assertThat(resumed.exitCode()).as(resumed.output()).isZero();
    if (halted.output().contains(" complete in ")) {
      // else the halt came before any checkpoint completed, and starting over is right
      assertThat(resumed.output()).contains("from its latest completed checkpoint");
    }
    Map<Long, Integer> counts = CommittedOutput.idCounts(work.resolve("out"));
    assertThat(counts.entrySet().stream().filter(e -> e.getValue() != 1).toList())
        .as("ids committed more than once")
        .isEmpty();
    assertThat(counts).hasSize(RECORDS);
    assertThat(counts.keySet())
        .allSatisfy(
            id -> assertThat(id - SeedRecords.BASE_TIMESTAMP).isBetween(0L, (long) RECORDS - 1));
  }

  private List<String> arguments(boolean chained) {
    List<String> arguments =
        new ArrayList<>(
            List.of(
                "--records", String.valueOf(RECORDS),
                "--rate", String.valueOf(RATE),
                "--checkpoint-interval", "200",
                "--parallelism", "1",
                "--checkpoint-dir", work.resolve("checkpoints").toString(),
                "--output-dir", work.resolve("out").toString()));
    if (chained) {
      arguments.add("--chained");
    }
    return arguments;
  }
}
