package io.weir.rocksdb;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * A session window job and a window join job, each writing exactly once to files, are killed with
 * SIGKILL at random points of their checkpoints: once at parallelism 2, then resumed at 3 (their
 * open windows move by key group) and killed again, then resumed to the end of their input. The
 * committed files hold every session and every pair of the loop-computed reference exactly once.
 */
@Timeout(value = 5, unit = TimeUnit.MINUTES)
class WindowChaosTest {
  private static final long RECORDS = 16_000;

  @TempDir Path checkpointRoot;
  @TempDir Path output;
  @TempDir Path localRoot;
  @TempDir Path logs;

  @ParameterizedTest(name = "{0} on {1}")
  @CsvSource({"sessions,heap", "sessions,rocksdb", "join,heap", "join,rocksdb"})
  void when_killedTwiceAndRescaledFromTwoToThree_then_everyResultIsCommittedOnce(
      String kind, String backend) throws Exception {
    Path jobDirectory = checkpointRoot.resolve(kind);
    ChildJobs jobs = new ChildJobs(localRoot, logs);
    Random random = new Random(kind.hashCode() * 31L + backend.hashCode());

    // given: killed at parallelism 2 after a random number of checkpoints
    Process first = jobs.start(WindowChaosJob.class, "parallelism-2", arguments(2, kind, backend));
    ChildJobs.awaitCheckpointAfter(jobDirectory, 1 + random.nextInt(3));
    Thread.sleep(random.nextInt(300));
    assertThat(first.isAlive())
        .as("the first run is killed mid-input: %s", log("parallelism-2"))
        .isTrue();
    ChildJobs.kill(first);

    // when: resumed at 3, killed again, and resumed to the end
    long resumedFrom = ChildJobs.latestCheckpoint(jobDirectory);
    Process second = jobs.start(WindowChaosJob.class, "parallelism-3", arguments(3, kind, backend));
    // the join on RocksDB runs close to its throughput, so checkpoints come slowly: the first
    // one of this run is the latest point that is sure to come before the input ends
    ChildJobs.awaitCheckpointAfter(jobDirectory, resumedFrom);
    Thread.sleep(random.nextInt(300));
    assertThat(second.isAlive())
        .as("the second run is killed mid-input: %s", log("parallelism-3"))
        .isTrue();
    ChildJobs.kill(second);
    Process last = jobs.start(WindowChaosJob.class, "last", arguments(3, kind, backend));
    assertThat(last.waitFor(180, TimeUnit.SECONDS)).as("the last run ends").isTrue();
    assertThat(last.exitValue()).as("exit code, see " + logs).isZero();

    // then
    List<String> expected =
        kind.equals("sessions")
            ? WindowChaosJob.referenceSessions(RECORDS)
            : WindowChaosJob.referencePairs(RECORDS);
    Map<String, Integer> wrong = new HashMap<>();
    for (String line : ChildJobs.committedLines(output)) {
      wrong.merge(line, 1, Integer::sum);
    }
    for (String line : expected) {
      wrong.merge(line, -1, Integer::sum);
    }
    wrong.values().removeIf(difference -> difference == 0);
    assertThat(expected).hasSizeGreaterThan(1_000);
    assertThat(wrong).as("lines committed more (+) or fewer (-) times than once").isEmpty();
  }

  private String log(String run) throws IOException {
    String log = Files.readString(logs.resolve(run + ".log"));
    return log.substring(Math.max(0, log.length() - 3_000));
  }

  private List<String> arguments(int parallelism, String kind, String backend) {
    return List.of(
        checkpointRoot.toString(),
        output.toString(),
        String.valueOf(parallelism),
        backend,
        kind,
        String.valueOf(RECORDS));
  }
}
