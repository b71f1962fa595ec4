package io.weir.runtime.operators.window;

import io.weir.runtime.operators.ProcessingTimeService;
import java.util.Comparator;
import java.util.PriorityQueue;

/** Processing time that moves only when a test says so; callbacks run in the test's thread. */
final class ManualTimeService implements ProcessingTimeService {
  private record Scheduled(long time, long sequence, Callback callback) {}

  private final PriorityQueue<Scheduled> scheduled =
      new PriorityQueue<>(
          Comparator.comparingLong(Scheduled::time).thenComparingLong(Scheduled::sequence));
  private long now;
  private long sequence;

  ManualTimeService(long start) {
    this.now = start;
  }

  @Override
  public long currentTime() {
    return now;
  }

  @Override
  public void schedule(long time, Callback callback) {
    scheduled.add(new Scheduled(time, sequence++, callback));
  }

  /** Moves processing time to {@code time}, running every callback that became due. */
  void advanceTo(long time) throws Exception {
    now = time;
    while (!scheduled.isEmpty() && scheduled.peek().time() <= time) {
      Scheduled next = scheduled.poll();
      next.callback().onProcessingTime(next.time());
    }
  }
}
