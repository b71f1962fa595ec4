package io.weir.runtime.task;

import io.weir.runtime.operators.ProcessingTimeService;
import java.time.Clock;
import java.util.Comparator;
import java.util.PriorityQueue;

/**
 * Processing-time callbacks of one task. Scheduled and fired only on the task's thread, so it needs
 * no locking.
 */
final class TaskTimers implements ProcessingTimeService {
  private record Timer(long time, long sequence, Callback callback) {}

  private final Clock clock;
  private final PriorityQueue<Timer> timers =
      new PriorityQueue<>(Comparator.comparingLong(Timer::time).thenComparingLong(Timer::sequence));
  private long sequence;

  TaskTimers(Clock clock) {
    this.clock = clock;
  }

  @Override
  public long currentTime() {
    return clock.millis();
  }

  @Override
  public void schedule(long time, Callback callback) {
    timers.add(new Timer(time, sequence++, callback));
  }

  /** The time of the next timer, or {@link Long#MAX_VALUE}. */
  long nextTime() {
    Timer next = timers.peek();
    return next == null ? Long.MAX_VALUE : next.time;
  }

  void fireDue() throws Exception {
    long now = clock.millis();
    while (!timers.isEmpty() && timers.peek().time <= now) {
      Timer timer = timers.poll();
      timer.callback.onProcessingTime(timer.time);
    }
  }
}
