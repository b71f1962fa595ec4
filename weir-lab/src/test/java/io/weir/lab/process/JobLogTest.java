package io.weir.lab.process;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.List;
import java.util.OptionalInt;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * What a job's log says of its end: the restarts it reports, run locally or on a cluster, and its
 * error.
 */
class JobLogTest {
  @TempDir Path directory;

  @Test
  void when_aLocalJobRestarted_then_itsFinalLineCounts() throws Exception {
    Path log =
        write(
            "dashboard: http://127.0.0.1:43133/  (REST under /api/v1/, Prometheus at /metrics)",
            "14:41:03.411 WARN  JobDriver - Job 'seed' attempt 0 failed: operator 'Sink: Example"
                + " Sink' (subtask 2/2) failed: IllegalStateException: ...; restarting in 1000 ms"
                + " from checkpoint 2",
            "weir: job 'seed' 2s: 6,022 records in, 4,334 out, 2 checkpoints, 3,010 records/s",
            "job 'seed' finished in 5.7 s: 6 checkpoints, 1 restarts");

    assertThat(JobLog.restarts(log)).isEqualTo(OptionalInt.of(1));
  }

  @Test
  void when_aJobOnAClusterFinished_then_itsFinalLineCounts() throws Exception {
    Path log =
        write(
            "weir: job 'seed' RUNNING 2s: 10 records in, 10 out, last checkpoint chk-1, 0 restarts,"
                + " 5 records/s",
            "job 'seed' finished: 2 restarts, last checkpoint chk-7");

    assertThat(JobLog.restarts(log)).isEqualTo(OptionalInt.of(2));
  }

  @Test
  void when_theJobDidNotEnd_then_nothingIsReported() throws Exception {
    Path log = write("weir: job 'seed' 2s: 6,022 records in, 4,334 out, 2 checkpoints, 3 restarts");

    assertThat(JobLog.restarts(log)).isEmpty();
  }

  @Test
  void when_theLogHoldsBytesThatAreNotUtf8_then_theFinalLineStillCounts() throws Exception {
    Path log = directory.resolve("job.log");
    Files.write(log, new byte[] {'r', 'e', 'c', (byte) 0xff, (byte) 0xfe, '\n'});
    Files.writeString(
        log,
        "job 'seed' finished in 5.7 s: 6 checkpoints, 3 restarts\n",
        StandardOpenOption.APPEND);

    assertThat(JobLog.restarts(log)).isEqualTo(OptionalInt.of(3));
  }

  @Test
  void when_aLogBeforeTheErrorHoldsBytesThatAreNotUtf8_then_theErrorLineIsStillFound()
      throws Exception {
    Path log = directory.resolve("job.log");
    Files.write(log, new byte[] {'r', 'e', 'c', (byte) 0xff, (byte) 0xfe, '\n'});
    Files.writeString(
        log,
        "weir: job 'seed' 2s: 10 records in, 10 out, 1 checkpoints, 5 records/s\n"
            + "weir: broker localhost:1 unreachable\n",
        StandardOpenOption.APPEND);

    assertThat(JobLog.errorLine(log)).contains("weir: broker localhost:1 unreachable");
  }

  private Path write(String... lines) throws Exception {
    return Files.write(directory.resolve("job.log"), List.of(lines));
  }
}
