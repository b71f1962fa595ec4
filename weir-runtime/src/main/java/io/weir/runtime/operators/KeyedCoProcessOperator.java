package io.weir.runtime.operators;

import io.weir.api.functions.KeySelector;
import io.weir.api.functions.KeyedCoProcessFunction;
import io.weir.api.functions.KeyedProcessFunction;
import io.weir.api.functions.OutputTag;
import io.weir.api.functions.TimerService;

/**
 * Runs a {@link KeyedCoProcessFunction}: a record of either input sets its key as the current key,
 * so both inputs share the keyed state and timers of a key.
 */
public final class KeyedCoProcessOperator
    extends AbstractTwoInputOperator<KeyedCoProcessFunction<Object, Object, Object, Object>>
    implements KeyedProcessFunction.OnTimerContext<Object>, TimerService {
  private final TimestampedCollector collector = new TimestampedCollector(output);
  private KeyedTimers timers;
  private boolean firingEventTime;

  public KeyedCoProcessOperator(
      OperatorSetup setup,
      KeyedCoProcessFunction<Object, Object, Object, Object> function,
      KeySelector<?, ?> secondKey,
      Output output) {
    super(setup, function, secondKey, output);
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
    function.processElement1(record, this, collector);
  }

  @Override
  public void processElement2(Object record, long timestamp) throws Exception {
    recordsIn++;
    setSecondKeyContext(record);
    collector.setTimestamp(timestamp);
    function.processElement2(record, this, collector);
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
