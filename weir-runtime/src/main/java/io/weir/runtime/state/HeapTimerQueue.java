package io.weir.runtime.state;

import java.util.Collection;
import java.util.Comparator;
import java.util.PriorityQueue;

/**
 * Timers on the heap: the times of each key in a table of the keyed state (so they are snapshotted
 * by key group), and a priority queue over all of them, rebuilt from the table on restore. A
 * deleted timer stays in the queue until its time, when the table shows it is gone.
 */
final class HeapTimerQueue implements KeyedTimerQueue {
  private final KeyedStateBackend backend;
  private final KeyedTable table;
  private final PriorityQueue<Timer> queue =
      new PriorityQueue<>(Comparator.comparingLong(Timer::time));

  HeapTimerQueue(KeyedStateBackend backend, KeyedTable table) {
    this.backend = backend;
    this.table = table;
    table.forEach(
        (key, written) -> {
          KeyTimerTimes times = asTimes(written);
          for (int index = 0; index < times.size(); index++) {
            queue.add(new Timer(times.get(index), key));
          }
        });
  }

  /** A key's times as this queue keeps them, or as a set, as earlier checkpoints hold them. */
  private static KeyTimerTimes asTimes(Object written) {
    return written instanceof Collection<?> set ? KeyTimerTimes.of(set) : (KeyTimerTimes) written;
  }

  private KeyTimerTimes times(boolean create) {
    Object written = table.get();
    if (written == null) {
      return create ? new KeyTimerTimes() : null;
    }
    return asTimes(written);
  }

  @Override
  public void register(long time) {
    KeyTimerTimes times = times(true);
    if (times.add(time)) {
      table.put(times);
      queue.add(new Timer(time, backend.currentKey()));
    }
  }

  @Override
  public void delete(long time) {
    KeyTimerTimes times = times(false);
    if (times != null && times.remove(time)) {
      table.put(times.isEmpty() ? null : times);
    }
  }

  @Override
  public long nextTime() {
    Timer next = queue.peek();
    return next == null ? Long.MAX_VALUE : next.time();
  }

  @Override
  public Timer pollDue(long time) {
    while (!queue.isEmpty() && queue.peek().time() <= time) {
      Timer timer = queue.poll();
      backend.setCurrentKey(timer.key());
      KeyTimerTimes times = times(false);
      if (times != null && times.remove(timer.time())) {
        table.put(times.isEmpty() ? null : times);
        return timer;
      }
    }
    return null;
  }
}
