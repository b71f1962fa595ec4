package io.weir.runtime.execution;

import java.io.PrintStream;
import java.util.function.LongSupplier;
import java.util.function.Supplier;

/**
 * Prints one line on a running job's progress: records read by the sources and written by the
 * sinks, checkpoints, and the rate since the last line. Counters are read without synchronization
 * from the task threads' plain fields: a line may lag a little, never block them.
 */
final class ProgressReporter implements Runnable {
  private final String jobName;
  private final Supplier<ExecutionAttempt> attempt;
  private final LongSupplier completedCheckpoints;
  private final PrintStream out;
  private final long started = System.nanoTime();
  private long lastIn;
  private long lastNanos = started;

  ProgressReporter(
      String jobName,
      Supplier<ExecutionAttempt> attempt,
      LongSupplier completedCheckpoints,
      PrintStream out) {
    this.jobName = jobName;
    this.attempt = attempt;
    this.completedCheckpoints = completedCheckpoints;
    this.out = out;
  }

  @Override
  public void run() {
    ExecutionAttempt current = attempt.get();
    if (current == null) {
      return;
    }
    RecordCounts counts = RecordCounts.of(current.tasks());
    long in = counts.in();
    long out = counts.out();
    long now = System.nanoTime();
    double seconds = Math.max(1e-9, (now - lastNanos) / 1e9);
    long rate = Math.round(Math.max(0, in - lastIn) / seconds);
    lastIn = in;
    lastNanos = now;
    this.out.printf(
        "weir: job '%s' %ds: %,d records in, %,d out, %d checkpoints, %,d records/s%n",
        jobName, (now - started) / 1_000_000_000L, in, out, completedCheckpoints.getAsLong(), rate);
  }
}
