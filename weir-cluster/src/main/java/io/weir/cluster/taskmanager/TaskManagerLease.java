package io.weir.cluster.taskmanager;

import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.LongSupplier;

/**
 * A task manager's lease with its job manager: valid until the send time of the latest heartbeat
 * the job manager answered plus the job manager's heartbeat timeout, on this process's monotonic
 * clock. The job manager gives a task manager up no earlier than its heartbeat timeout after the
 * last heartbeat it received, and that one was sent no earlier than any heartbeat it answered: so
 * while the lease is valid the job manager still counts this task manager as live, and the work
 * beside a start (a sink's fence) may begin. Invalid until the first answer. Thread safe.
 */
final class TaskManagerLease {
  private final LongSupplier nanoTime;
  private final AtomicLong validUntilNanos;

  /**
   * @param nanoTime a monotonic clock, as {@code System::nanoTime}
   */
  TaskManagerLease(LongSupplier nanoTime) {
    this.nanoTime = nanoTime;
    this.validUntilNanos = new AtomicLong(nanoTime.getAsLong());
  }

  /** The job manager answered the heartbeat sent at {@code heartbeatSentNanos}. */
  void answered(long heartbeatSentNanos, long timeoutMillis) {
    long until = heartbeatSentNanos + TimeUnit.MILLISECONDS.toNanos(timeoutMillis);
    validUntilNanos.accumulateAndGet(
        until, (known, offered) -> offered - known > 0 ? offered : known);
  }

  boolean isValid() {
    return validUntilNanos.get() - nanoTime.getAsLong() > 0;
  }
}
