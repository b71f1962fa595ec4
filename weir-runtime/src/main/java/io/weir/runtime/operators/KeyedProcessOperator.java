package io.weir.runtime.operators;

import io.weir.api.functions.KeyedProcessFunction;
import io.weir.api.functions.OutputTag;
import io.weir.api.functions.TimerService;

/** Runs a {@link KeyedProcessFunction} with keyed state and timers. */
public final class KeyedProcessOperator
    extends AbstractStreamOperator<KeyedProcessFunction<Object, Object, Object>>
    implements KeyedProcessFunction.OnTimerContext<Object>, TimerService {
  private final TimestampedCollector collector = new TimestampedCollector(output);
  private KeyedTimers timers;
  private boolean firingEventTime;

  public KeyedProcessOperator(
      OperatorSetup setup, KeyedProcessFunction<Object, Object, Object> function, Output output) {
    super(setup, function, output);
  }

  @Override
  public void initializeState() throws Exception {
    super.initializeState();
    timers = new KeyedTimers(keyedState, setup.timeService(), this::onTimer);
  }

  @Override
  public void processElement(Object record, long timestamp) throws Exception {
    recordsIn++;
    setKeyContext(record);
    collector.setTimestamp(timestamp);
    function.processElement(record, this, collector);
  }

  @Override
  public void processWatermark(long watermark) throws Exception {
    timers.advanceWatermark(watermark);
    super.processWatermark(watermark);
  }

  private void onTimer(long time, Object key, boolean eventTime) throws Exception {
    collector.setTimestamp(eventTime ? time : Long.MIN_VALUE);
    this.firingEventTime = eventTime;
    function.onTimer(time, this, collector);
  }

  @Override
  public long timestamp() {
    return collector.timestamp();
  }

  @Override
  public Object currentKey() {
    return keyedState.currentKey();
  }

  @Override
  public TimerService timerService() {
    return this;
  }

  @Override
  public <X> void output(OutputTag<X> tag, X value) {
    collector.collectSide(tag, value);
  }

  @Override
  public boolean isEventTime() {
    return firingEventTime;
  }

  @Override
  public long currentProcessingTime() {
    return timers.currentProcessingTime();
  }

  @Override
  public long currentWatermark() {
    return timers.currentWatermark();
  }

  @Override
  public void registerEventTimeTimer(long time) {
    timers.registerEventTimeTimer(time);
  }

  @Override
  public void registerProcessingTimeTimer(long time) {
    timers.registerProcessingTimeTimer(time);
  }

  @Override
  public void deleteEventTimeTimer(long time) {
    timers.deleteEventTimeTimer(time);
  }

  @Override
  public void deleteProcessingTimeTimer(long time) {
    timers.deleteProcessingTimeTimer(time);
  }
}
