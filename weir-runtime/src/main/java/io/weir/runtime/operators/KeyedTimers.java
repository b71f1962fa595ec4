package io.weir.runtime.operators;

import io.weir.runtime.state.KeyedStateBackend;
import io.weir.runtime.state.KeyedTimerQueue;

/**
 * Event-time and processing-time timers of a keyed operator, in one {@link KeyedTimerQueue} per
 * time domain that the keyed state backend keeps (so they are snapshotted, restored and rescaled by
 * key group, and on RocksDB need not fit in memory). Used only on the task thread.
 */
public final class KeyedTimers {
  /** Called when a timer fires, with the timer's key already set as the current key. */
  @FunctionalInterface
  public interface Target {
    void onTimer(long time, Object key, boolean eventTime) throws Exception;
  }

  private final ProcessingTimeService timeService;
  private final Target target;
  private final KeyedTimerQueue eventTime;
  private final KeyedTimerQueue processingTime;
  private long currentWatermark = Long.MIN_VALUE;
  private long scheduledProcessingTime = Long.MAX_VALUE;

  public KeyedTimers(KeyedStateBackend backend, ProcessingTimeService timeService, Target target) {
    this.timeService = timeService;
    this.target = target;
    this.eventTime = backend.timerQueue("__timers.event-time");
    this.processingTime = backend.timerQueue("__timers.processing-time");
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
    fireUpTo(eventTime, watermark, true);
  }

  private void onProcessingTime(long now) throws Exception {
    scheduledProcessingTime = Long.MAX_VALUE;
    fireUpTo(processingTime, now, false);
    maybeScheduleProcessingTime();
  }

  private void maybeScheduleProcessingTime() {
    long next = processingTime.nextTime();
    if (next != Long.MAX_VALUE && next < scheduledProcessingTime) {
      scheduledProcessingTime = next;
      timeService.schedule(next, this::onProcessingTime);
    }
  }

  private void fireUpTo(KeyedTimerQueue queue, long time, boolean isEventTime) throws Exception {
    KeyedTimerQueue.Timer timer;
    while ((timer = queue.pollDue(time)) != null) {
      target.onTimer(timer.time(), timer.key(), isEventTime);
    }
  }
}
