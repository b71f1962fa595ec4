package io.weir.runtime.checkpoint.storage;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.weir.api.datastream.JobExecutionException;
import io.weir.runtime.checkpoint.CheckpointMetadata;
import io.weir.runtime.checkpoint.RoutingCheckpointStorage;
import io.weir.runtime.failpoint.Failpoints;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

@Timeout(120)
class CheckpointDirectoryLeaseTest {
  @TempDir Path root;

  private Process holder;

  @AfterEach
  void killHolder() throws InterruptedException {
    if (holder != null && holder.isAlive()) {
      holder.destroyForcibly().waitFor(30, TimeUnit.SECONDS);
    }
  }

  @Test
  void when_anotherProcessHoldsTheLease_then_acquisitionFailsNamingItAndTheDirectory()
      throws Exception {
    // given
    Path jobDirectory = root.resolve("seed");
    long epoch = holdInAnotherProcess(jobDirectory);

    // when / then
    assertThatThrownBy(() -> CheckpointDirectoryLease.acquire(jobDirectory, "seed", clock()))
        .isInstanceOf(JobExecutionException.class)
        .hasMessageMatching(
            "job 'seed' is already running \\(pid "
                + holder.pid()
                + " on host \\S+ since \\d{4}-\\d\\d-\\d\\dT[0-9:.]+Z\\) with checkpoint"
                + " directory "
                + java.util.regex.Pattern.quote(jobDirectory.toString())
                + "; stop it first");
    assertThat(CheckpointDirectoryLease.lastEpoch(jobDirectory)).isEqualTo(epoch);
    assertThat(holder.isAlive()).isTrue();
  }

  @Test
  void when_holderIsKilled_then_theLeaseIsFreeInAHigherEpoch() throws Exception {
    // given
    Path jobDirectory = root.resolve("seed");
    long killedEpoch = holdInAnotherProcess(jobDirectory);

    // when: SIGKILL, so no code of the holder releases anything
    holder.destroyForcibly().waitFor(30, TimeUnit.SECONDS);

    // then
    try (CheckpointDirectoryLease lease =
        CheckpointDirectoryLease.acquire(jobDirectory, "seed", clock())) {
      assertThat(lease.epoch()).isEqualTo(killedEpoch + 1);
      assertThat(lease.holder().pid()).isEqualTo(ProcessHandle.current().pid());
    }
  }

  @Test
  void when_acquiredReleasedAndAcquiredAgain_then_theEpochGrowsEachTime() throws Exception {
    Path jobDirectory = root.resolve("job");
    List<Long> epochs = new java.util.ArrayList<>();
    for (int run = 0; run < 3; run++) {
      try (CheckpointDirectoryLease lease =
          CheckpointDirectoryLease.acquire(jobDirectory, "job", clock())) {
        epochs.add(lease.epoch());
      }
    }
    assertThat(epochs).containsExactly(1L, 2L, 3L);
    assertThat(CheckpointDirectoryLease.lastEpoch(jobDirectory)).isEqualTo(3);
  }

  @Test
  void when_thisProcessHoldsTheLease_then_aSecondAcquisitionHereFailsAndTheFirstStaysHeld()
      throws Exception {
    Path jobDirectory = root.resolve("job");
    try (CheckpointDirectoryLease first =
        CheckpointDirectoryLease.acquire(jobDirectory, "job", clock())) {
      assertThatThrownBy(() -> CheckpointDirectoryLease.acquire(jobDirectory, "job", clock()))
          .hasMessageContaining(
              "job 'job' is already running (pid " + ProcessHandle.current().pid());

      // the first still holds the operating system's lock: another process is refused
      long epochSeenByAnother = holdInAnotherProcessExpectingRefusal(jobDirectory);
      assertThat(epochSeenByAnother).isEqualTo(first.epoch());
    }
  }

  @Test
  void when_checkpointCompletedUnderALease_then_itsMetadataRecordsTheEpoch() throws Exception {
    Path jobDirectory = root.resolve("word-count");
    try (CheckpointDirectoryLease lease =
        CheckpointDirectoryLease.acquire(jobDirectory, "word-count", clock())) {
      FileCheckpointStorage files = new FileCheckpointStorage(jobDirectory, 1);
      RoutingCheckpointStorage storage =
          new RoutingCheckpointStorage(files, Failpoints.none(), lease.leaseEpoch());
      storage.complete(Snapshots.storeAll(files, 4, false));

      CheckpointMetadata written =
          MetadataFormat.parse(
              Files.readAllBytes(files.checkpointDirectory(4).resolve(MetadataFormat.FILE_NAME)));
      assertThat(written.leaseEpoch()).isEqualTo(lease.epoch()).isEqualTo(1);
    }
  }

  /** Starts a JVM that takes the lease; returns its epoch once it holds it. */
  private long holdInAnotherProcess(Path jobDirectory) throws IOException {
    holder = startHolder(jobDirectory);
    String line = firstLine(holder);
    assertThat(line).as("what the holder printed").startsWith("holding epoch ");
    return Long.parseLong(line.substring("holding epoch ".length()));
  }

  /**
   * Starts a JVM that tries to take the lease, expects it to fail, and returns the epoch it saw.
   */
  private long holdInAnotherProcessExpectingRefusal(Path jobDirectory)
      throws IOException, InterruptedException {
    Process refused = startHolder(jobDirectory);
    refused.getOutputStream().close();
    assertThat(refused.waitFor(60, TimeUnit.SECONDS)).isTrue();
    String errors = new String(refused.getErrorStream().readAllBytes(), StandardCharsets.UTF_8);
    assertThat(refused.exitValue()).as(errors).isNotZero();
    assertThat(errors).contains("is already running (pid " + ProcessHandle.current().pid());
    return CheckpointDirectoryLease.lastEpoch(jobDirectory);
  }

  private static Process startHolder(Path jobDirectory) throws IOException {
    String java = Path.of(System.getProperty("java.home"), "bin", "java").toString();
    String classpath =
        System.getProperty("surefire.test.class.path", System.getProperty("java.class.path"));
    return new ProcessBuilder(
            java, "-cp", classpath, LeaseHoldingMain.class.getName(), jobDirectory.toString())
        .start();
  }

  private static String firstLine(Process process) throws IOException {
    BufferedReader reader =
        new BufferedReader(new InputStreamReader(process.getInputStream(), StandardCharsets.UTF_8));
    String line = reader.readLine();
    if (line == null) {
      throw new AssertionError(
          "the holder ended without a word: "
              + new String(process.getErrorStream().readAllBytes(), StandardCharsets.UTF_8));
    }
    return line;
  }

  private static Clock clock() {
    return Clock.systemUTC();
  }
}
