package io.weir.cli;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.weir.cluster.CommittedOutput;
import io.weir.cluster.PaymentsJob;
import io.weir.lab.process.JobProcess;
import io.weir.runtime.checkpoint.CompletedCheckpoint;
import io.weir.runtime.checkpoint.storage.CheckpointLayout;
import io.weir.runtime.checkpoint.storage.CheckpointLoader;
import io.weir.runtime.exchange.InFlightRecords;
import java.nio.file.Path;
import java.time.Duration;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * A two-input job (orders and payments connected by order id into keyed state) run locally with
 * unaligned checkpoints, its sink slower than its input, on either state backend: killed with
 * SIGKILL once a completed checkpoint holds records in flight on its two inputs, then restarted
 * from that checkpoint, it writes every order once.
 */
class UnalignedTwoInputKillTest {
  private static final int ORDERS = 6_000;
  private static final int RATE_PER_SOURCE = 1_500;
  // A third of the input's rate: each of the two matches takes a record per millisecond.
  private static final int SLOWED_MICROS = 1_000;

  private static final Pattern IN_FLIGHT_CHANNEL =
      Pattern.compile("channel-(\\d+)-of-4\\.input-\\d$");

  @TempDir Path directory;

  @ParameterizedTest
  @ValueSource(strings = {"heap", "rocksdb"})
  void when_killedWithRecordsInFlightOnBothInputs_then_everyOrderIsPaidOnce(String backend)
      throws Exception {
    // given
    Path output = directory.resolve("out");
    try (JobProcess first = start(backend, 1)) {
      // when: killed once a completed checkpoint stored records in flight
      await()
          .atMost(Duration.ofSeconds(90))
          .pollInterval(Duration.ofMillis(50))
          .until(() -> !first.isAlive() || newestCheckpointHoldsRecordsInFlight());
      assertThat(first.isAlive()).as("job alive, see %s", first.log()).isTrue();
      first.kill();
      first.waitFor(10_000);
    }

    // then: restarted from that checkpoint, the job runs to its end
    try (JobProcess second = start(backend, 2)) {
      assertThat(second.waitFor(180_000)).as("exit code, see %s", second.log()).isZero();
    }
    Map<String, Integer> counts = CommittedOutput.lineCounts(output);
    assertThat(counts).hasSize(ORDERS).containsKeys("paid 0", "paid " + (ORDERS - 1));
    assertThat(counts.values()).containsOnly(1);
  }

  private JobProcess start(String backend, int run) throws Exception {
    return JobProcess.start(
        List.of(
            "--unaligned",
            "--state-backend",
            backend,
            "--checkpoint-dir",
            directory.resolve("checkpoints").toString(),
            PaymentsJob.class.getName(),
            directory.resolve("out").toString(),
            "" + ORDERS,
            "" + RATE_PER_SOURCE,
            "" + SLOWED_MICROS),
        null,
        directory.resolve("job-" + run + ".log"));
  }

  /**
   * Whether the newest complete checkpoint stored records in flight for the match on both its
   * inputs: orders on the gate's first two channels, payments on the other two.
   */
  private boolean newestCheckpointHoldsRecordsInFlight() throws Exception {
    List<Path> checkpoints =
        CheckpointLayout.checkpointDirectoriesNewestFirst(
            directory.resolve("checkpoints").resolve("payments"));
    for (Path checkpoint : checkpoints) {
      Set<Integer> channels;
      try {
        channels = inFlightChannels(CheckpointLoader.load(checkpoint));
      } catch (Exception e) {
        continue; // still being written: look at the one before
      }
      return channels.stream().anyMatch(channel -> channel < 2)
          && channels.stream().anyMatch(channel -> channel >= 2);
    }
    return false;
  }

  private static Set<Integer> inFlightChannels(CompletedCheckpoint checkpoint) {
    Set<Integer> channels = new HashSet<>();
    checkpoint
        .operators()
        .get("match")
        .subtasks()
        .values()
        .forEach(
            subtask ->
                subtask
                    .listStates()
                    .forEach(
                        (name, records) -> {
                          Matcher channel = IN_FLIGHT_CHANNEL.matcher(name);
                          if (InFlightRecords.isInFlightState(name)
                              && !records.isEmpty()
                              && channel.find()) {
                            channels.add(Integer.parseInt(channel.group(1)));
                          }
                        }));
    return channels;
  }
}
