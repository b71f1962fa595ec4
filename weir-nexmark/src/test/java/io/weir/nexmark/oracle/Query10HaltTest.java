package io.weir.nexmark.oracle;

import static org.assertj.core.api.Assertions.assertThat;

import io.weir.nexmark.queries.Query10;
import io.weir.runtime.failpoint.FailpointNames;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * q10 into partition directories in a process of its own, halted like {@code kill -9} around the
 * commit of a checkpoint's part files in several partitions, then started again: the committed
 * files equal DuckDB's rows, each in its partition, each once.
 */
@Timeout(240)
class Query10HaltTest {
  private static final long EVENTS = 20_000;
  private static final long PROCESS_TIMEOUT_SECONDS = 90;

  @TempDir Path work;

  @ParameterizedTest
  @ValueSource(
      strings = {
        FailpointNames.COORDINATOR_NOTIFY_BEFORE,
        FailpointNames.SINK_COMMIT_BEFORE,
        FailpointNames.SINK_COMMIT_AFTER
      })
  void when_haltedAroundACommitAndRestarted_then_eachPartitionHoldsItsRowsOnce(String failpoint)
      throws Exception {
    // when: the first run halts at the failpoint's second hit, the second resumes
    Outcome halted = run(failpoint + "=halt@2");
    Outcome resumed = run("");

    // then
    assertThat(halted.exitCode()).as(halted.output()).isEqualTo(137);
    assertThat(resumed.exitCode()).as(resumed.output()).isZero();
    // each failpoint comes after a checkpoint's metadata is durable: the restart resumes from it
    assertThat(resumed.output()).contains("from its latest completed checkpoint");
    CheckResult result =
        QueryCheck.compareFiles(
            new Query10(),
            Query10ToFilesJob.CONFIG,
            EVENTS,
            QueryCheck.committedLinesByDirectory(Query10ToFilesJob.results(work)));
    assertThat(result.matches()).as(result.line()).isTrue();
    assertThat(result.partitions()).isGreaterThan(10);
  }

  private record Outcome(int exitCode, String output) {}

  private Outcome run(String failpoints) throws Exception {
    List<String> command = new ArrayList<>();
    command.add(Path.of(System.getProperty("java.home"), "bin", "java").toString());
    command.add("-Xmx256m");
    command.add("-cp");
    command.add(System.getProperty("java.class.path"));
    if (!failpoints.isEmpty()) {
      command.add("-Dweir.failpoints=" + failpoints);
    }
    command.add(Query10ToFilesJob.class.getName());
    command.add(work.toString());
    command.add(Long.toString(EVENTS));
    Path log = Files.createTempFile(work, "q10-", ".log");
    Process process =
        new ProcessBuilder(command).redirectErrorStream(true).redirectOutput(log.toFile()).start();
    try {
      if (!process.waitFor(PROCESS_TIMEOUT_SECONDS, TimeUnit.SECONDS)) {
        throw new AssertionError("q10 did not end in time: " + Files.readString(log));
      }
      return new Outcome(process.exitValue(), Files.readString(log));
    } finally {
      process.destroyForcibly();
    }
  }
}
