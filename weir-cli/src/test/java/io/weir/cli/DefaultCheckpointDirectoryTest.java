package io.weir.cli;

import static org.assertj.core.api.Assertions.assertThat;

import io.weir.examples.SeedJob;
import io.weir.lab.process.JobProcess;
import io.weir.runtime.failpoint.FailpointConfiguration;
import io.weir.runtime.failpoint.FailpointNames;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * A job with a two-phase-commit sink run without {@code --checkpoint-dir} keeps its checkpoints in
 * {@code .weir/checkpoints/<job>} under the working directory and says so, so that a rerun after a
 * crash resumes and commits what the crashed run left pending instead of starting over.
 */
@Timeout(300)
class DefaultCheckpointDirectoryTest {
  private static final int RECORDS = 8_000;

  /** Records per second per subtask: about four seconds of input at parallelism 2. */
  private static final int RATE = 1_000;

  @TempDir Path work;

  @Test
  void when_aJobWithoutCheckpointDirectoryCrashesAndRunsAgain_then_itResumesAndCommitsEachIdOnce()
      throws Exception {
    // given: the seed job with a FileSink, run without --checkpoint-dir, halted after checkpoint 3
    // completed and before its sink committed it
    Path jobDirectory = work.resolve(".weir").resolve("checkpoints").resolve("seed");
    String halt = FailpointNames.COORDINATOR_NOTIFY_BEFORE + "=halt@3";
    Path firstLog = work.resolve("first.log");
    try (JobProcess first = JobProcess.startIn(work, runArguments(), halt, firstLog)) {
      assertThat(first.waitFor(Duration.ofSeconds(120).toMillis()))
          .as(Files.readString(firstLog))
          .isEqualTo(FailpointConfiguration.DEFAULT_HALT_EXIT_CODE);
    }
    assertThat(Files.readString(firstLog))
        .contains(
            "Job 'seed' has the two-phase-commit sink 'Sink: Example Sink' and no checkpoint"
                + " directory: keeping its checkpoints in "
                + jobDirectory.toRealPath()
                + " (set --checkpoint-dir to choose another)");
    assertThat(jobDirectory.resolve("chk-3").resolve("_metadata")).exists();

    // when: the same command again, in the same working directory
    Path secondLog = work.resolve("second.log");
    try (JobProcess second = JobProcess.startIn(work, runArguments(), null, secondLog)) {
      assertThat(second.waitFor(Duration.ofSeconds(180).toMillis()))
          .as(Files.readString(secondLog))
          .isZero();
    }

    // then: it resumed from checkpoint 3 and every id is committed once
    assertThat(Files.readString(secondLog))
        .contains("job 'seed' resuming from its latest completed checkpoint 3");
    CommittedPartFiles.assertEachIdOnce(work.resolve("out"), RECORDS);
  }

  private List<String> runArguments() {
    return List.of(
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
}
