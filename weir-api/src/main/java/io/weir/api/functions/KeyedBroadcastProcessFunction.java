package io.weir.api.functions;

import io.weir.api.annotation.PublicEvolving;
import io.weir.api.state.BroadcastState;
import io.weir.api.state.MapStateDescriptor;
import io.weir.api.state.ReadOnlyBroadcastState;

/**
 * A function of a keyed stream connected with a broadcast stream: rules, thresholds or reference
 * data pushed to every subtask beside the keyed records they apply to.
 *
 * <p>Called on the task thread of the two-input task, never concurrently: {@link #processElement}
 * for a keyed record (its key is the current key of keyed state and timers; broadcast state is
 * read-only), {@link #processBroadcastElement} for a broadcast element, which every subtask
 * receives (no current key, so no keyed state or timers; broadcast state may change, the same way
 * in every subtask), {@link #onTimer} when a timer of the current key fires. Between the two inputs
 * there is no promised order: a keyed record may be processed before a broadcast element sent
 * earlier. Broadcast state is checkpointed by every subtask and restored at any parallelism; keyed
 * state and timers move by key group. An exception fails the task, and the job restarts from its
 * latest checkpoint.
 */
@PublicEvolving
public abstract class KeyedBroadcastProcessFunction<K, IN, B, OUT> extends AbstractRichFunction {

  public abstract void processElement(IN value, ReadOnlyContext<K> context, Collector<OUT> out)
      throws Exception;

  public abstract void processBroadcastElement(B value, Context context, Collector<OUT> out)
      throws Exception;

  /** Called when a timer of {@code context.currentKey()} fires; broadcast state is read-only. */
  public void onTimer(long timestamp, OnTimerContext<K> context, Collector<OUT> out)
      throws Exception {}

  /** The broadcast side's view; valid only during the call. */
  public interface Context {
    long timestamp();

    long currentWatermark();

    <X> void output(OutputTag<X> tag, X value);

    <KB, VB> BroadcastState<KB, VB> getBroadcastState(MapStateDescriptor<KB, VB> descriptor);
  }

  /** The keyed side's view; valid only during the call. */
  public interface ReadOnlyContext<K> extends KeyedProcessFunction.Context<K> {
    <KB, VB> ReadOnlyBroadcastState<KB, VB> getBroadcastState(
        MapStateDescriptor<KB, VB> descriptor);
  }

  /** The view of a firing timer. */
  public interface OnTimerContext<K> extends ReadOnlyContext<K> {
    boolean isEventTime();
  }
}
