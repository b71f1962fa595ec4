package io.weir.runtime.sink.file;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.weir.api.state.StateSerializer;
import io.weir.runtime.sink.twophase.SinkHarness;
import io.weir.runtime.sink.twophase.SinkHarness.Snapshot;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.stream.IntStream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/** A file sink that puts each record into the directory its bucket assigner names. */
class FileSinkBucketTest {
  @TempDir Path output;

  /** Fifteen buckets two levels deep, so a transaction of a few records touches several. */
  private static String bucketOf(Integer record) {
    return "k=" + record % 5 + "/m=" + record % 3;
  }

  private SinkHarness<Integer, FileSink<Integer>> harness(int subtaskIndex, long rollSizeBytes) {
    FileSink<Integer> template =
        FileSink.<Integer>forDirectory(output)
            .bucketAssigner(FileSinkBucketTest::bucketOf)
            .rollSizeBytes(rollSizeBytes)
            .build();
    // Each start gets a copy that went through serialization, as a sink shipped to a process.
    StateSerializer<FileSink<Integer>> shipping = StateSerializer.java();
    byte[] shipped = shipping.serialize(template);
    return new SinkHarness<>(() -> shipping.deserialize(shipped), subtaskIndex);
  }

  @Test
  void when_twoSubtasksWriteBucketsOverCheckpoints_then_eachRecordIsOnceInItsBucket()
      throws Exception {
    // given: records 0..599, the even ones on subtask 0 and the odd on 1, small parts that roll
    List<SinkHarness<Integer, FileSink<Integer>>> subtasks =
        List.of(harness(0, 16), harness(1, 16));
    for (SinkHarness<Integer, FileSink<Integer>> subtask : subtasks) {
      subtask.start();
    }
    // when: three checkpoints of 200 records each
    for (int checkpoint = 1; checkpoint <= 3; checkpoint++) {
      for (int record = (checkpoint - 1) * 200; record < checkpoint * 200; record++) {
        subtasks.get(record % 2).process(record);
      }
      for (SinkHarness<Integer, FileSink<Integer>> subtask : subtasks) {
        subtask.snapshot(checkpoint);
        subtask.notifyComplete(checkpoint);
      }
    }
    // then
    Map<String, List<String>> committed = BucketedOutput.linesByBucket(output);
    assertThat(committed).hasSize(15);
    assertBucketsHoldExactly(committed, IntStream.range(0, 600).boxed().toList());
    assertThat(OutputDirectory.stagedFileNames(output.resolve(".staging"))).isEmpty();
  }

  @Test
  void when_crashBetweenPreCommitAndCommit_then_restoreCommitsEachBucketOnce() throws Exception {
    // given: checkpoint 1 pre-committed the parts of six buckets, whose commit never came
    SinkHarness<Integer, FileSink<Integer>> harness = harness(0, 1 << 20);
    harness.start();
    harness.process(0, 1, 2, 3, 4, 5, 6, 7);
    Snapshot first = harness.snapshot(1);
    harness.crash();
    assertThat(BucketedOutput.linesByBucket(output)).isEmpty();
    // when: restored, and once more from the same checkpoint after a crash right after that
    harness.restore(first);
    harness.crash();
    harness.restore(first);
    // then
    assertBucketsHoldExactly(BucketedOutput.linesByBucket(output), List.of(0, 1, 2, 3, 4, 5, 6, 7));
    assertThat(OutputDirectory.stagedFileNames(output.resolve(".staging"))).isEmpty();
  }

  @Test
  void when_commitStoppedAfterOneBucket_then_restoreCommitsTheOtherBucketsOnce() throws Exception {
    // given: checkpoint 1 holds records in buckets k=0/m=0, k=1/m=1 and k=2/m=2 (parts 0, 1, 2),
    // and the commit renamed part 0 into its bucket before the process died
    SinkHarness<Integer, FileSink<Integer>> harness = harness(0, 1 << 20);
    harness.start();
    harness.process(0, 1, 2, 15);
    Snapshot first = harness.snapshot(1);
    harness.crash();
    Path bucket = Files.createDirectories(output.resolve("k=0/m=0"));
    Files.move(
        OutputDirectory.stagedFile(output.resolve(".staging"), ".part-0-0-0.inprogress"),
        bucket.resolve("part-0-0-0"),
        StandardCopyOption.ATOMIC_MOVE);
    // when
    harness.restore(first);
    // then
    assertBucketsHoldExactly(BucketedOutput.linesByBucket(output), List.of(0, 1, 2, 15));
    assertThat(OutputDirectory.allFileNames(bucket)).containsExactly("part-0-0-0");
    assertThat(OutputDirectory.stagedFileNames(output.resolve(".staging"))).isEmpty();
  }

  @Test
  void when_crashWithAnOpenTransactionInSeveralBuckets_then_restoreDeletesAllOfItsParts()
      throws Exception {
    // given: checkpoint 1 committed; records in five buckets written after it
    SinkHarness<Integer, FileSink<Integer>> harness = harness(0, 1 << 20);
    harness.start();
    harness.process(0);
    Snapshot first = harness.snapshot(1);
    harness.notifyComplete(1);
    harness.process(1, 2, 3, 4, 5);
    harness.crash();
    // when
    harness.restore(first);
    // then
    assertBucketsHoldExactly(BucketedOutput.linesByBucket(output), List.of(0));
    assertThat(OutputDirectory.stagedFileNames(output.resolve(".staging"))).isEmpty();
  }

  @Test
  void when_freshStartInUsedBucketedDirectory_then_committedNamesAreNotReused() throws Exception {
    // given: a first run committed into bucket k=0/m=0
    SinkHarness<Integer, FileSink<Integer>> firstRun = harness(0, 1 << 20);
    firstRun.start();
    firstRun.process(0);
    firstRun.snapshot(1);
    firstRun.notifyComplete(1);
    firstRun.close();
    // when: a second run without its state writes into the same bucket
    SinkHarness<Integer, FileSink<Integer>> secondRun = harness(0, 1 << 20);
    secondRun.start();
    secondRun.process(15);
    secondRun.snapshot(1);
    secondRun.notifyComplete(1);
    // then
    assertBucketsHoldExactly(BucketedOutput.linesByBucket(output), List.of(0, 15));
    assertThat(OutputDirectory.allFileNames(output.resolve("k=0/m=0")))
        .containsExactly("part-0-0-0", "part-0-1-0");
  }

  @ParameterizedTest
  @ValueSource(strings = {"/tmp/out", "a/../..", "..", "a//b", "a/", ".staging/x", "k=1/.hidden"})
  void when_bucketPathLeavesTheVisibleOutput_then_theWriteFailsNamingIt(String bucket)
      throws Exception {
    SinkHarness<String, FileSink<String>> harness =
        new SinkHarness<>(
            () -> FileSink.<String>forDirectory(output).bucketAssigner(record -> bucket).build(),
            0);
    harness.start();

    assertThatThrownBy(() -> harness.process("a"))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageStartingWith("Bucket path '" + bucket + "' is invalid: ")
        .satisfies(e -> assertThat(e.getMessage()).doesNotContain("\n"));
    assertThat(OutputDirectory.stagedFileNames(output.resolve(".staging"))).isEmpty();
  }

  /** Each bucket holds exactly the records whose bucket it is, counted with a plain loop. */
  private static void assertBucketsHoldExactly(
      Map<String, List<String>> committed, List<Integer> records) {
    Map<String, List<String>> expected = new TreeMap<>();
    for (Integer record : records) {
      expected.computeIfAbsent(bucketOf(record), any -> new ArrayList<>()).add(record.toString());
    }
    assertThat(committed).containsOnlyKeys(expected.keySet());
    expected.forEach(
        (bucket, lines) ->
            assertThat(committed.get(bucket))
                .as(bucket)
                .containsExactlyInAnyOrderElementsOf(lines));
  }
}
