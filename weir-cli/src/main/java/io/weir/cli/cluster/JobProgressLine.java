package io.weir.cli.cluster;

import io.weir.cluster.rpc.ClientMessages.JobStatus;
import java.io.PrintStream;

/**
 * Prints, every few seconds while {@code weir run} waits for a job on the cluster, one line with
 * the job's state, records, checkpoints, restarts and input rate — the same line a local run
 * prints.
 */
final class JobProgressLine {
  private static final long INTERVAL_NANOS = 2_000_000_000L;

  private final PrintStream out;
  private final long started = System.nanoTime();
  private long lastPrinted = started;
  private long lastIn;

  JobProgressLine(PrintStream out) {
    this.out = out;
  }

  void maybePrint(JobStatus job) {
    long now = System.nanoTime();
    if (now - lastPrinted < INTERVAL_NANOS || job.isTerminal()) {
      return;
    }
    // Counts start again with each attempt; a restart must not print a negative rate.
    long rate = Math.round(Math.max(0, job.recordsIn() - lastIn) / ((now - lastPrinted) / 1e9));
    lastPrinted = now;
    lastIn = job.recordsIn();
    out.printf(
        "weir: job '%s' %s %ds: %,d records in, %,d out, last checkpoint %s, %d restarts, %,d"
            + " records/s%s%n",
        job.jobName(),
        job.state(),
        (now - started) / 1_000_000_000L,
        job.recordsIn(),
        job.recordsOut(),
        job.lastCheckpointId() < 0 ? "none" : "chk-" + job.lastCheckpointId(),
        job.restarts(),
        rate,
        job.deadLetterRecords() > 0 ? ", dead-letters=" + job.deadLetterRecords() : "");
  }
}
