package io.weir.testing;

import io.weir.runtime.operators.ProcessingTimeService;
import java.util.Comparator;
import java.util.PriorityQueue;

/**
 * The processing-time service of one operator instance: reads the harness's clock and keeps the
 * instance's callbacks, which run on the test's thread when the test moves the clock past them. A
 * restored instance gets a new service, so a crashed instance's callbacks never run, as in a new
 * process.
 */
final class ManualTimeService implements ProcessingTimeService {
  private record Scheduled(long time, long sequence, Callback callback) {}

  private final ManualClock clock;
  private final PriorityQueue<Scheduled> scheduled =
      new PriorityQueue<>(
          Comparator.comparingLong(Scheduled::time).thenComparingLong(Scheduled::sequence));
  private long sequence;

  ManualTimeService(ManualClock clock) {
    this.clock = clock;
  }

  @Override
  public long currentTime() {
    return clock.now();
  }

  @Override
  public void schedule(long time, Callback callback) {
    scheduled.add(new Scheduled(time, sequence++, callback));
  }

  /** Runs, in time order, every callback due at the clock's time, also those scheduled by them. */
  void fireDue() throws Exception {
    while (!scheduled.isEmpty() && scheduled.peek().time() <= clock.now()) {
      Scheduled next = scheduled.poll();
      next.callback().onProcessingTime(next.time());
    }
  }
}
