package io.weir.cli;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.weir.examples.SeedJob;
import io.weir.lab.process.JobProcess;
import io.weir.runtime.checkpoint.storage.CheckpointDirectoryLease;
import io.weir.runtime.checkpoint.storage.MetadataFormat;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * Two {@code weir run}s of the seed job on one checkpoint directory, each a process of its own: the
 * second, started while the first runs, is refused with one line before it touches anything, and
 * the first goes on to commit every record exactly once.
 */
@Timeout(300)
class SecondRunnerTest {
  private static final int RECORDS = 16_000;

  /** Records per second per subtask: about eight seconds of input at parallelism 2. */
  private static final int RATE = 1_000;

  @TempDir Path work;

  @Test
  void when_secondRunnerStartsWhileTheFirstRuns_then_itIsRefusedAndTheFirstCommitsEachRecordOnce()
      throws Exception {
    // given: the first run has completed a checkpoint
    Path jobDirectory = work.resolve("checkpoints").resolve("seed");
    try (JobProcess first = JobProcess.start(runArguments(), null, work.resolve("first.log"))) {
      await()
          .atMost(Duration.ofSeconds(120))
          .until(() -> !first.isAlive() || completedCheckpoints(jobDirectory) > 0);
      assertThat(first.isAlive()).as(Files.readString(first.log())).isTrue();

      // when
      int secondExit;
      Path secondLog = work.resolve("second.log");
      try (JobProcess second = JobProcess.start(runArguments(), null, secondLog)) {
        secondExit = second.waitFor(Duration.ofSeconds(120).toMillis());
      }

      // then: refused with one line naming the first and nothing else printed (no restore, no
      // recovery), the lease still in the first's epoch
      String refusal = Files.readString(secondLog).strip();
      assertThat(secondExit).as(refusal).isEqualTo(1);
      assertThat(refusal)
          .matches(
              Pattern.quote("weir: job 'seed' is already running (pid " + first.pid() + " on host ")
                  + "\\S+ since \\S+\\) with checkpoint directory "
                  + Pattern.quote(jobDirectory.toString())
                  + "; stop it first");
      assertThat(CheckpointDirectoryLease.lastEpoch(jobDirectory)).isEqualTo(1);
      assertThat(first.isAlive()).as(Files.readString(first.log())).isTrue();
      int firstExit = first.waitFor(Duration.ofSeconds(180).toMillis());
      assertThat(firstExit).as(Files.readString(first.log())).isZero();
    }
    CommittedPartFiles.assertEachIdOnce(work.resolve("out"), RECORDS);
  }

  private List<String> runArguments() {
    return List.of(
        "--checkpoint-dir",
        work.resolve("checkpoints").toString(),
        "-p",
        "2",
        "--no-web",
        SeedJob.class.getName(),
        "--records",
        String.valueOf(RECORDS),
        "--rate",
        String.valueOf(RATE),
        "--checkpoint-interval",
        "200",
        "--output-dir",
        work.resolve("out").toString());
  }

  private static long completedCheckpoints(Path jobDirectory) throws IOException {
    if (!Files.isDirectory(jobDirectory)) {
      return 0;
    }
    try (Stream<Path> children = Files.list(jobDirectory)) {
      return children
          .filter(child -> Files.exists(child.resolve(MetadataFormat.FILE_NAME)))
          .count();
    }
  }
}
