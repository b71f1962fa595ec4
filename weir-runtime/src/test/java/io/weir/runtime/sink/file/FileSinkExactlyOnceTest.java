package io.weir.runtime.sink.file;

import static org.assertj.core.api.Assertions.assertThat;

import io.weir.api.state.StateSerializer;
import io.weir.runtime.sink.twophase.SinkHarness;
import io.weir.runtime.sink.twophase.SinkHarness.Snapshot;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class FileSinkExactlyOnceTest {
  @TempDir Path output;

  private SinkHarness<String, FileSink<String>> harness(int subtaskIndex) {
    FileSink<String> template = FileSink.<String>forDirectory(output).build();
    // Each start gets a copy that went through serialization, as a sink shipped to a process.
    StateSerializer<FileSink<String>> shipping = StateSerializer.java();
    byte[] shipped = shipping.serialize(template);
    return new SinkHarness<>(() -> shipping.deserialize(shipped), subtaskIndex);
  }

  @Test
  void when_checkpointCompletes_then_recordsAppearOnlyAfterNotify() throws Exception {
    SinkHarness<String, FileSink<String>> harness = harness(0);
    harness.start();
    harness.process("a", "b");

    harness.snapshot(1);

    assertThat(new OutputDirectory(output).fileNames()).isEmpty();
    assertThat(OutputDirectory.stagedFileNames(output.resolve(".staging")))
        .containsExactly(".part-0-0-0.inprogress");

    harness.notifyComplete(1);

    assertThat(new OutputDirectory(output).fileNames()).containsExactly("part-0-0-0");
    assertThat(new OutputDirectory(output).lines()).containsExactly("a", "b");
    assertThat(OutputDirectory.stagedFileNames(output.resolve(".staging"))).isEmpty();
  }

  @Test
  void when_crashAfterSnapshotBeforeNotify_then_restoreCommitsOnceAndAbortsOpen() throws Exception {
    // given: checkpoint 1 committed, checkpoint 2 taken, "c" written after it, then a crash
    SinkHarness<String, FileSink<String>> harness = harness(0);
    harness.start();
    harness.process("a");
    harness.snapshot(1);
    harness.notifyComplete(1);
    harness.process("b");
    Snapshot second = harness.snapshot(2);
    harness.process("c");
    harness.crash();
    // when
    harness.restore(second);
    // then
    assertThat(new OutputDirectory(output).lines()).containsExactly("a", "b");
    assertThat(OutputDirectory.stagedFileNames(output.resolve(".staging"))).isEmpty();
    // and the job goes on under new names
    harness.process("d");
    harness.snapshot(3);
    harness.notifyComplete(3);
    assertThat(new OutputDirectory(output).lines()).containsExactly("a", "b", "d");
    assertThat(new OutputDirectory(output).fileNames())
        .containsExactly("part-0-0-0", "part-0-1-0", "part-0-3-0");
  }

  @Test
  void when_restoredTwiceFromSameSnapshot_then_commitIsIdempotent() throws Exception {
    SinkHarness<String, FileSink<String>> harness = harness(0);
    harness.start();
    harness.process("a", "b");
    Snapshot first = harness.snapshot(1);
    harness.crash();

    harness.restore(first);
    harness.process("x");
    harness.crash();
    harness.restore(first);
    harness.notifyComplete(1);

    assertThat(new OutputDirectory(output).lines()).containsExactly("a", "b");
    // The attempt between the two restores is in no checkpoint: its hidden file stays behind,
    // and its name is never reused.
    assertThat(OutputDirectory.stagedFileNames(output.resolve(".staging")))
        .containsExactly(".part-0-2-0.inprogress");
  }

  @Test
  void when_freshStartInUsedDirectory_then_existingFilesAreNeverOverwritten() throws Exception {
    SinkHarness<String, FileSink<String>> firstRun = harness(0);
    firstRun.start();
    firstRun.process("first run");
    firstRun.snapshot(1);
    firstRun.notifyComplete(1);
    firstRun.close();

    SinkHarness<String, FileSink<String>> secondRun = harness(0);
    secondRun.start();
    secondRun.process("second run");
    secondRun.snapshot(1);
    secondRun.notifyComplete(1);

    assertThat(new OutputDirectory(output).lines()).containsExactly("first run", "second run");
  }

  @Test
  void when_twoSubtasksWriteOneDirectory_then_namesDoNotCollide() throws Exception {
    SinkHarness<String, FileSink<String>> first = harness(0);
    SinkHarness<String, FileSink<String>> second = harness(1);
    first.start();
    second.start();
    first.process("from 0");
    second.process("from 1");

    first.snapshot(1);
    second.snapshot(1);
    first.notifyComplete(1);
    second.notifyComplete(1);

    assertThat(new OutputDirectory(output).fileNames()).containsExactly("part-0-0-0", "part-1-0-0");
    assertThat(new OutputDirectory(output).lines()).containsExactly("from 0", "from 1");
  }

  @Test
  void when_closed_then_openTransactionFilesDeletedAndNothingCommitted() throws Exception {
    SinkHarness<String, FileSink<String>> harness = harness(0);
    harness.start();
    harness.process("a");

    harness.close();

    assertThat(new OutputDirectory(output).fileNames()).isEmpty();
    assertThat(OutputDirectory.stagedFileNames(output.resolve(".staging"))).isEmpty();
  }

  @Test
  void when_checkpointWithoutRecords_then_noFileIsWritten() throws Exception {
    SinkHarness<String, FileSink<String>> harness = harness(0);
    harness.start();

    harness.snapshot(1);
    harness.notifyComplete(1);

    assertThat(OutputDirectory.allFileNames(output)).containsExactly(".staging");
  }
}
