package io.weir.rocksdb;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.weir.api.state.StateSerializers;
import io.weir.api.state.ValueState;
import io.weir.api.state.ValueStateDescriptor;
import io.weir.runtime.checkpoint.CompletedCheckpoint;
import io.weir.runtime.checkpoint.storage.CheckpointLayout;
import io.weir.runtime.checkpoint.storage.CheckpointLoader;
import io.weir.runtime.state.KeyedStateBackend;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * A keyed job whose RocksDB state is several times its heap ({@code -Xmx128m}) is killed with
 * {@code kill -9} at parallelism 2, resumed at 3 and killed again, and resumed at 1 to the end of
 * its input; then every key's state in the final checkpoint is checked against what it must be.
 */
@Timeout(value = 8, unit = TimeUnit.MINUTES)
class LargeStateKillAndRescaleTest {
  private static final long KEYS = 500_000;
  private static final long RECORDS = KEYS + KEYS / 5;
  private static final int VALUE_BYTES = 1_200;
  private static final long RECORDS_PER_SECOND = 40_000;
  private static final long STATE_BYTES_BEFORE_FIRST_KILL = 200L << 20;

  @TempDir Path checkpointRoot;
  @TempDir Path localRoot;
  @TempDir Path logs;

  @Test
  void when_killedAndRescaledTwoThreeOne_then_everyKeysStateIsExact() throws Exception {
    Path jobDirectory = checkpointRoot.resolve(LargeStateJob.NAME);

    // given: parallelism 2, killed once a checkpoint holds a few hundred MB
    Process first = start(2);
    await()
        .atMost(Duration.ofSeconds(90))
        .pollInterval(Duration.ofMillis(200))
        .until(() -> sharedBytes(jobDirectory) >= STATE_BYTES_BEFORE_FIRST_KILL);
    long beforeFirstKill = latestCheckpoint(jobDirectory);
    awaitCheckpointAfter(jobDirectory, beforeFirstKill);
    kill(first);

    // when: resumed at 3 and killed after two more checkpoints
    Process second = start(3);
    Path firstDirectory = localRoot.resolve("process-" + first.pid());
    long restored = latestCheckpoint(jobDirectory);
    awaitCheckpointAfter(jobDirectory, restored + 1);
    assertThat(firstDirectory).as("the killed process's RocksDB directory").doesNotExist();
    kill(second);

    // and resumed at 1 to the end of the input
    Process third = start(1);
    assertThat(third.waitFor(150, TimeUnit.SECONDS)).as("the last run ends").isTrue();
    assertThat(third.exitValue()).as("exit code, see " + logs).isZero();

    // then
    CompletedCheckpoint last = CheckpointLoader.load(jobDirectory);
    assertThat(sharedBytes(jobDirectory)).isGreaterThan(4 * (128L << 20));
    verifyEveryKey(last);
  }

  private void verifyEveryKey(CompletedCheckpoint checkpoint) throws Exception {
    try (KeyedStateBackend backend = ChildJobs.restoreAll(checkpoint, LargeStateJob.OPERATOR_UID)) {
      ValueState<byte[]> state =
          backend.getState(
              new ValueStateDescriptor<>(LargeStateJob.STATE_NAME, StateSerializers.tagged()));
      List<Long> wrong = new ArrayList<>();
      for (long key = 0; key < KEYS; key++) {
        backend.setCurrentKey(key);
        long count = key < RECORDS - KEYS ? 2 : 1;
        byte[] expected = LargeStateJob.expectedValue(key, count, VALUE_BYTES);
        if (!java.util.Arrays.equals(state.value(), expected) && wrong.size() < 10) {
          wrong.add(key);
        }
      }
      assertThat(wrong).as("keys whose state differs from the reference").isEmpty();
    }
  }

  private Process start(int parallelism) throws IOException {
    return new ChildJobs(localRoot, logs)
        .start(
            LargeStateJob.class,
            "parallelism-" + parallelism,
            List.of(
                checkpointRoot.toString(),
                String.valueOf(parallelism),
                String.valueOf(KEYS),
                String.valueOf(RECORDS),
                String.valueOf(VALUE_BYTES),
                String.valueOf(RECORDS_PER_SECOND)));
  }

  private static void kill(Process process) throws InterruptedException {
    ChildJobs.kill(process);
  }

  private static void awaitCheckpointAfter(Path jobDirectory, long checkpointId) {
    ChildJobs.awaitCheckpointAfter(jobDirectory, checkpointId);
  }

  private static long latestCheckpoint(Path jobDirectory) throws IOException {
    return ChildJobs.latestCheckpoint(jobDirectory);
  }

  private static long sharedBytes(Path jobDirectory) throws IOException {
    Path shared = CheckpointLayout.sharedDirectory(jobDirectory);
    if (!Files.isDirectory(shared)) {
      return 0;
    }
    try (Stream<Path> files = Files.list(shared)) {
      return files.mapToLong(file -> file.toFile().length()).sum();
    }
  }
}
