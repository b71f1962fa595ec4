package io.weir.runtime.execution;

import io.weir.runtime.gateway.RecordCounts;
import java.io.PrintStream;
import java.util.function.LongSupplier;
import java.util.function.Supplier;

/**
 * Prints one line on a running job's progress: records read by the sources and written by the
 * sinks, checkpoints, the rate since the last line, and records sent to a dead-letter topic (once
 * there are any). Counters are read without synchronization from the task threads' plain fields: a
 * line may lag a little, never block them.
 */
final class ProgressReporter implements Runnable {
  private final String jobName;
  private final Supplier<RecordCounts> records;
  private final LongSupplier completedCheckpoints;
  private final PrintStream out;
  private final long started = System.nanoTime();
  private long lastIn;
  private long lastNanos = started;

  ProgressReporter(
      String jobName,
      Supplier<RecordCounts> records,
      LongSupplier completedCheckpoints,
      PrintStream out) {
    this.jobName = jobName;
    this.records = records;
    this.completedCheckpoints = completedCheckpoints;
    this.out = out;
  }

  @Override
  public void run() {
    RecordCounts counts = records.get();
    if (counts == null) {
      return;
    }
    long in = counts.in();
    long out = counts.out();
    long now = System.nanoTime();
    double seconds = Math.max(1e-9, (now - lastNanos) / 1e9);
    long rate = Math.round(Math.max(0, in - lastIn) / seconds);
    lastIn = in;
    lastNanos = now;
    this.out.printf(
        "weir: job '%s' %ds: %,d records in, %,d out, %d checkpoints, %,d records/s%s%n",
        jobName,
        (now - started) / 1_000_000_000L,
        in,
        out,
        completedCheckpoints.getAsLong(),
        rate,
        deadLetters(counts.deadLetters()));
  }

  /** What a progress line says of dead letters: nothing while there are none. */
  static String deadLetters(long count) {
    return count > 0 ? ", dead-letters=" + count : "";
  }
}
