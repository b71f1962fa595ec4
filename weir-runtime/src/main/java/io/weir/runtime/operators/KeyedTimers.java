package io.weir.runtime.operators;

import io.weir.runtime.state.KeyedStateBackend;
import io.weir.runtime.state.KeyedTable;
import java.util.Comparator;
import java.util.PriorityQueue;
import java.util.TreeSet;

/**
 * Event-time and processing-time timers of a keyed operator. The timers of each key live in the
 * keyed state (so they are snapshotted by key group); a queue per time domain orders them for
 * firing and is rebuilt from the state on restore. Used only on the task thread.
 */
public final class KeyedTimers {
  /** Called when a timer fires, with the timer's key already set as the current key. */
  @FunctionalInterface
  public interface Target {
    void onTimer(long time, Object key, boolean eventTime) throws Exception;
  }

  private record Entry(long time, Object key) {}

  private final KeyedStateBackend backend;
  private final ProcessingTimeService timeService;
  private final Target target;
  private final Domain eventTime;
  private final Domain processingTime;
  private long currentWatermark = Long.MIN_VALUE;
  private long scheduledProcessingTime = Long.MAX_VALUE;

  public KeyedTimers(KeyedStateBackend backend, ProcessingTimeService timeService, Target target) {
    this.backend = backend;
    this.timeService = timeService;
    this.target = target;
    this.eventTime = new Domain(backend.table("__timers.event-time"));
    this.processingTime = new Domain(backend.table("__timers.processing-time"));
    maybeScheduleProcessingTime();
  }

  public long currentWatermark() {
    return currentWatermark;
  }

  public long currentProcessingTime() {
    return timeService.currentTime();
  }

  public void registerEventTimeTimer(long time) {
    eventTime.register(time);
  }

  public void deleteEventTimeTimer(long time) {
    eventTime.delete(time);
  }

  public void registerProcessingTimeTimer(long time) {
    processingTime.register(time);
    maybeScheduleProcessingTime();
  }

  public void deleteProcessingTimeTimer(long time) {
    processingTime.delete(time);
  }

  /** Fires every event-time timer up to the watermark, in time order. */
  public void advanceWatermark(long watermark) throws Exception {
    currentWatermark = watermark;
    eventTime.fireUpTo(watermark, true);
  }

  private void onProcessingTime(long now) throws Exception {
    scheduledProcessingTime = Long.MAX_VALUE;
    processingTime.fireUpTo(now, false);
    maybeScheduleProcessingTime();
  }

  private void maybeScheduleProcessingTime() {
    Entry next = processingTime.queue.peek();
    if (next != null && next.time < scheduledProcessingTime) {
      scheduledProcessingTime = next.time;
      timeService.schedule(next.time, this::onProcessingTime);
    }
  }

  private final class Domain {
    private final KeyedTable table;
    private final PriorityQueue<Entry> queue =
        new PriorityQueue<>(Comparator.comparingLong(Entry::time));

    Domain(KeyedTable table) {
      this.table = table;
      table.forEach(
          (key, times) -> {
            for (Object time : (TreeSet<?>) times) {
              queue.add(new Entry((Long) time, key));
            }
          });
    }

    @SuppressWarnings("unchecked")
    private TreeSet<Long> times(boolean create) {
      TreeSet<Long> times = (TreeSet<Long>) table.get();
      return times == null && create ? new TreeSet<>() : times;
    }

    void register(long time) {
      TreeSet<Long> times = times(true);
      if (times.add(time)) {
        table.put(times);
        queue.add(new Entry(time, backend.currentKey()));
      }
    }

    void delete(long time) {
      TreeSet<Long> times = times(false);
      if (times != null && times.remove(time)) {
        table.put(times.isEmpty() ? null : times);
      }
    }

    void fireUpTo(long time, boolean isEventTime) throws Exception {
      while (!queue.isEmpty() && queue.peek().time <= time) {
        Entry entry = queue.poll();
        backend.setCurrentKey(entry.key);
        TreeSet<Long> times = times(false);
        // A deleted timer stays in the queue until its time; only the state knows it is gone.
        if (times != null && times.remove(entry.time)) {
          table.put(times.isEmpty() ? null : times);
          target.onTimer(entry.time, entry.key, isEventTime);
        }
      }
    }
  }
}
