package io.weir.runtime.sink.file;

import static org.assertj.core.api.Assertions.assertThat;

import io.weir.runtime.sink.twophase.SinkHarness;
import io.weir.runtime.sink.twophase.SinkHarness.Snapshot;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * Random runs of records, checkpoints, lost notifications and crashes. Whatever happens, the output
 * ends up holding exactly the records of the last completed checkpoint, each once.
 */
class FileSinkRandomFailureTest {
  @TempDir Path output;

  @ParameterizedTest
  @ValueSource(longs = {1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12})
  void when_randomCrashesAndLostNotifications_then_outputIsExactlyTheLastCompletedCheckpoint(
      long seed) throws Exception {
    Random random = new Random(seed);
    SinkHarness<String, FileSink<String>> harness =
        new SinkHarness<>(() -> FileSink.<String>forDirectory(output).rollSizeBytes(40).build(), 0);
    // The records each snapshot's state stands for: everything before its barrier.
    Map<Long, List<String>> recordsOfSnapshot = new HashMap<>();
    List<String> recordsSinceStart = new ArrayList<>();
    Snapshot lastCompleted = null;
    Snapshot lastTaken = null;
    long nextCheckpointId = 1;
    harness.start();

    for (int step = 0; step < 60; step++) {
      int dice = random.nextInt(100);
      if (dice < 50) {
        String record = "record-" + seed + "-" + step;
        harness.process(record);
        recordsSinceStart.add(record);
      } else if (dice < 70) {
        lastTaken = harness.snapshot(nextCheckpointId++);
        recordsOfSnapshot.put(lastTaken.checkpointId(), List.copyOf(recordsSinceStart));
      } else if (dice < 85 && lastTaken != null) {
        lastCompleted = lastTaken;
        if (random.nextBoolean()) {
          harness.notifyComplete(lastCompleted.checkpointId());
        }
      } else if (dice < 95) {
        harness.crash();
        recordsSinceStart = restore(harness, lastCompleted, recordsOfSnapshot);
        lastTaken = null;
      } else if (lastTaken != null) {
        harness.notifyAborted(lastTaken.checkpointId());
      }
    }
    harness.crash();
    restore(harness, lastCompleted, recordsOfSnapshot);

    List<String> expected =
        lastCompleted == null ? List.of() : recordsOfSnapshot.get(lastCompleted.checkpointId());
    assertThat(new OutputDirectory(output).lines()).containsExactlyInAnyOrderElementsOf(expected);
  }

  private static List<String> restore(
      SinkHarness<String, FileSink<String>> harness,
      Snapshot lastCompleted,
      Map<Long, List<String>> recordsOfSnapshot)
      throws Exception {
    if (lastCompleted == null) {
      harness.start();
      return new ArrayList<>();
    }
    harness.restore(lastCompleted);
    return new ArrayList<>(recordsOfSnapshot.get(lastCompleted.checkpointId()));
  }
}
