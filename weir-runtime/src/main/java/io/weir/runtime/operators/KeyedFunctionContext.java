package io.weir.runtime.operators;

import io.weir.api.functions.KeyedProcessFunction;
import io.weir.api.functions.OutputTag;
import io.weir.api.functions.TimerService;
import io.weir.runtime.state.KeyedStateBackend;

/**
 * What a keyed process function sees of its operator, shared by the keyed operators that run one:
 * the current record's timestamp and key, side outputs, and the operator's {@link KeyedTimers}.
 * When a timer fires, the timestamp and time domain are set before the operator's {@link
 * TimerTarget} calls the function. Used only on the task thread.
 */
class KeyedFunctionContext implements KeyedProcessFunction.OnTimerContext<Object>, TimerService {
  /**
   * Calls the function's {@code onTimer}; the timer's key, timestamp and domain are already set.
   */
  @FunctionalInterface
  interface TimerTarget {
    void onTimer(long time) throws Exception;
  }

  private final TimestampedCollector collector;
  private final KeyedStateBackend keyedState;
  private final TimerTarget target;
  private final KeyedTimers timers;
  private boolean firingEventTime;

  KeyedFunctionContext(
      TimestampedCollector collector,
      KeyedStateBackend keyedState,
      ProcessingTimeService timeService,
      TimerTarget target) {
    this.collector = collector;
    this.keyedState = keyedState;
    this.target = target;
    this.timers = new KeyedTimers(keyedState, timeService, this::fire);
  }

  /** Fires every event-time timer up to the watermark, in time order. */
  final void advanceWatermark(long watermark) throws Exception {
    timers.advanceWatermark(watermark);
  }

  private void fire(long time, Object key, boolean eventTime) throws Exception {
    collector.setTimestamp(eventTime ? time : Long.MIN_VALUE);
    this.firingEventTime = eventTime;
    target.onTimer(time);
  }

  @Override
  public final long timestamp() {
    return collector.timestamp();
  }

  @Override
  public final Object currentKey() {
    return keyedState.currentKey();
  }

  @Override
  public final TimerService timerService() {
    return this;
  }

  @Override
  public final <X> void output(OutputTag<X> tag, X value) {
    collector.collectSide(tag, value);
  }

  @Override
  public final boolean isEventTime() {
    return firingEventTime;
  }

  @Override
  public final long currentProcessingTime() {
    return timers.currentProcessingTime();
  }

  @Override
  public final long currentWatermark() {
    return timers.currentWatermark();
  }

  @Override
  public final void registerEventTimeTimer(long time) {
    timers.registerEventTimeTimer(time);
  }

  @Override
  public final void registerProcessingTimeTimer(long time) {
    timers.registerProcessingTimeTimer(time);
  }

  @Override
  public final void deleteEventTimeTimer(long time) {
    timers.deleteEventTimeTimer(time);
  }

  @Override
  public final void deleteProcessingTimeTimer(long time) {
    timers.deleteProcessingTimeTimer(time);
  }
}
