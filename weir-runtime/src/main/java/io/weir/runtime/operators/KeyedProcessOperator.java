package io.weir.runtime.operators;

import io.weir.api.functions.Collector;
import io.weir.api.functions.KeyedProcessFunction;
import io.weir.api.functions.OutputTag;
import io.weir.api.functions.TimerService;

/** Runs a {@link KeyedProcessFunction} with keyed state and timers. */
public final class KeyedProcessOperator
    extends AbstractStreamOperator<KeyedProcessFunction<Object, Object, Object>>
    implements Collector<Object>, KeyedProcessFunction.OnTimerContext<Object>, TimerService {
  private KeyedTimers timers;
  private long timestamp;
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
    this.timestamp = timestamp;
    function.processElement(record, this, this);
  }

  @Override
  public void processWatermark(long watermark) throws Exception {
    timers.advanceWatermark(watermark);
    super.processWatermark(watermark);
  }

  private void onTimer(long time, Object key, boolean eventTime) throws Exception {
    this.timestamp = eventTime ? time : Long.MIN_VALUE;
    this.firingEventTime = eventTime;
    function.onTimer(time, this, this);
  }

  @Override
  public void collect(Object record) {
    try {
      output.collect(record, timestamp);
    } catch (RuntimeException e) {
      throw e;
    } catch (Exception e) {
      throw new OperatorException(e);
    }
  }

  @Override
  public long timestamp() {
    return timestamp;
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
    try {
      output.collectSide(tag, value, timestamp);
    } catch (RuntimeException e) {
      throw e;
    } catch (Exception e) {
      throw new OperatorException(e);
    }
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
