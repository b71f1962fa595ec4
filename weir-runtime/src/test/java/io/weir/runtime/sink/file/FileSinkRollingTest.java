package io.weir.runtime.sink.file;

import static org.assertj.core.api.Assertions.assertThat;

import io.weir.runtime.sink.twophase.SinkHarness;
import io.weir.runtime.sink.twophase.SinkHarness.Snapshot;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class FileSinkRollingTest {
  @TempDir Path output;

  // "aaa\n" is 4 bytes: two records fill a part.
  private final SinkHarness<String, FileSink<String>> harness =
      new SinkHarness<>(() -> FileSink.<String>forDirectory(output).rollSizeBytes(8).build(), 0);

  @Test
  void when_partReachesRollSize_then_transactionCommitsSeveralParts() throws Exception {
    harness.start();
    harness.process("aaa", "bbb", "ccc", "ddd", "eee");

    harness.snapshot(1);
    harness.notifyComplete(1);

    assertThat(new OutputDirectory(output).fileNames())
        .containsExactly("part-0-0-0", "part-0-0-1", "part-0-0-2");
    assertThat(new OutputDirectory(output).lines())
        .containsExactly("aaa", "bbb", "ccc", "ddd", "eee");
  }

  @Test
  void when_crashAfterRollingInOpenTransaction_then_restoreDeletesEveryPart() throws Exception {
    harness.start();
    harness.process("aaa");
    Snapshot first = harness.snapshot(1);
    harness.process("bbb", "ccc", "ddd", "eee");
    harness.crash();

    harness.restore(first);

    assertThat(new OutputDirectory(output).lines()).containsExactly("aaa");
    assertThat(OutputDirectory.stagedFileNames(output.resolve(".staging"))).isEmpty();
  }

  @Test
  void when_customEncoder_then_itsBytesAreWritten() throws Exception {
    SinkHarness<Integer, FileSink<Integer>> numbers =
        new SinkHarness<>(
            () ->
                FileSink.<Integer>forDirectory(output)
                    .encoder((number, out) -> out.write(("n=" + number + "\n").getBytes()))
                    .build(),
            0);
    numbers.start();
    numbers.process(1, 2);

    numbers.snapshot(1);
    numbers.notifyComplete(1);

    assertThat(new OutputDirectory(output).lines()).containsExactly("n=1", "n=2");
  }
}
