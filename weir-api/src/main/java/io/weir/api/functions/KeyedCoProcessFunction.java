package io.weir.api.functions;

import io.weir.api.annotation.PublicEvolving;

/**
 * A function of two connected keyed streams, with keyed state and timers that both inputs share: a
 * record of either input makes its key the current key, so state written by {@link
 * #processElement1} for key k is what {@link #processElement2} reads for k. Both inputs must be
 * keyed by keys that are equal for records that belong together (same type, same {@code equals}).
 *
 * <p>Called on the task thread of the two-input task, never concurrently: {@link #processElement1}
 * for records of the first input, {@link #processElement2} for the second, {@link #onTimer} when a
 * timer of the current key fires (event-time timers when the minimum of both inputs' watermarks
 * passes them, in time order, before the watermark goes downstream). Each input keeps its own
 * order; between the two there is no promised order. Keyed state, timers and operator state are
 * checkpointed with the task and restored with it, also at another parallelism (keyed state moves
 * by key group). An exception fails the task, and the job restarts from its latest checkpoint.
 */
@PublicEvolving
public abstract class KeyedCoProcessFunction<K, IN1, IN2, OUT> extends AbstractRichFunction {

  public abstract void processElement1(
      IN1 value, KeyedProcessFunction.Context<K> context, Collector<OUT> out) throws Exception;

  public abstract void processElement2(
      IN2 value, KeyedProcessFunction.Context<K> context, Collector<OUT> out) throws Exception;

  /** Called when a timer of {@code context.currentKey()} fires. */
  public void onTimer(
      long timestamp, KeyedProcessFunction.OnTimerContext<K> context, Collector<OUT> out)
      throws Exception {}
}
