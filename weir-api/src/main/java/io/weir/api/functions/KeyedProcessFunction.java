package io.weir.api.functions;

import io.weir.api.annotation.Public;

/** A process function on a keyed stream: keyed state and timers of the current key. */
@Public
public abstract class KeyedProcessFunction<K, IN, OUT> extends AbstractRichFunction {

  public abstract void processElement(IN value, Context<K> context, Collector<OUT> out)
      throws Exception;

  /** Called when a timer of {@code context.currentKey()} fires. */
  public void onTimer(long timestamp, OnTimerContext<K> context, Collector<OUT> out)
      throws Exception {}

  /** The current record's view. */
  public interface Context<K> {
    long timestamp();

    K currentKey();

    TimerService timerService();

    <X> void output(OutputTag<X> tag, X value);
  }

  /** The view of a firing timer. */
  public interface OnTimerContext<K> extends Context<K> {
    boolean isEventTime();
  }
}
