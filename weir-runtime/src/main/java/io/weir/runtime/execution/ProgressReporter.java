package io.weir.runtime.execution;

import io.weir.api.graph.OperatorSpec;
import io.weir.runtime.operators.StreamOperator;
import io.weir.runtime.task.StreamTask;
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
    long in = 0;
    long out = 0;
    for (StreamTask task : current.tasks()) {
      for (StreamOperator operator : task.operators()) {
        var spec =
            task.deployment().vertex().chain().stream()
                .filter(t -> t.uid().equals(operator.setup().uid()))
                .findFirst()
                .map(t -> t.spec())
                .orElse(null);
        if (spec instanceof OperatorSpec.Source) {
          in += operator.recordsOut();
        } else if (spec instanceof OperatorSpec.Sink) {
          out += operator.recordsIn();
        }
      }
    }
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
