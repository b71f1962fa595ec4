package io.weir.rocksdb;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * A keyed co-process job, an interval join and a keyed broadcast job, each writing through the
 * exactly-once file sink, killed with SIGKILL twice at random points (after a random number of
 * completed checkpoints, seen by a poll) at parallelism 2, then resumed from the latest checkpoint
 * at parallelism 3 with keyed state pending (orders waiting for payments, join sides waiting for
 * partners, records waiting for rules beside the rules in broadcast state) to the end of the input.
 * The committed output holds every row of the plain-loop reference exactly once.
 */
@Timeout(value = 6, unit = TimeUnit.MINUTES)
class TwoInputKillAndRescaleTest {
  @TempDir Path checkpointRoot;
  @TempDir Path output;
  @TempDir Path localRoot;
  @TempDir Path logs;
  private final List<Process> started = new ArrayList<>();

  /** Ends a run that a failed assertion left behind. */
  @AfterEach
  void killLeftovers() throws InterruptedException {
    for (Process process : started) {
      if (process.isAlive()) {
        ChildJobs.kill(process);
      }
    }
  }

  @ParameterizedTest(name = "{0} on {1}, seed {2}")
  @CsvSource({
    "co-process, heap, 11",
    "co-process, rocksdb, 12",
    "join, heap, 13",
    "join, rocksdb, 14",
    "broadcast, heap, 15",
    "broadcast, rocksdb, 16"
  })
  void when_killedTwiceAndResumedAtThree_then_everyRowIsCommittedOnce(
      String kind, String backend, long seed) throws Exception {
    Random random = new Random(seed);
    Path jobDirectory = checkpointRoot.resolve(TwoInputChaosJob.NAME);
    ChildJobs jobs = new ChildJobs(localRoot, logs);

    // given: two runs at parallelism 2, each killed at a random point
    long checkpoint = 0;
    for (int run = 1; run <= 2; run++) {
      Process process = start(jobs, kind + "-" + run, arguments(kind, backend, 2));
      checkpoint += 1 + random.nextInt(4);
      ChildJobs.awaitCheckpointAfter(jobDirectory, checkpoint);
      ChildJobs.kill(process);
      checkpoint = ChildJobs.latestCheckpoint(jobDirectory);
    }
    assertThat(ChildJobs.committedLines(output))
        .as("rows committed before the last run")
        .isNotEmpty();

    // when: resumed at parallelism 3 to the end of the input
    Process last = start(jobs, kind + "-last", arguments(kind, backend, 3));
    assertThat(last.waitFor(240, TimeUnit.SECONDS)).as("the last run ends").isTrue();
    assertThat(last.exitValue()).as("exit code, see " + logs).isZero();

    // then
    List<String> expected =
        switch (kind) {
          case "join" -> TwoInputChaosJob.joinReference();
          case "broadcast" -> TwoInputChaosJob.broadcastReference();
          default -> TwoInputChaosJob.coProcessReference();
        };
    assertThat(ChildJobs.committedLines(output)).containsExactlyInAnyOrderElementsOf(expected);
  }

  private Process start(ChildJobs jobs, String run, List<String> arguments) throws IOException {
    Process process = jobs.start(TwoInputChaosJob.class, run, arguments);
    started.add(process);
    return process;
  }

  private List<String> arguments(String kind, String backend, int parallelism) {
    return List.of(
        checkpointRoot.toString(), output.toString(), String.valueOf(parallelism), kind, backend);
  }
}
