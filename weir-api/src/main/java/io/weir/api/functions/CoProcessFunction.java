package io.weir.api.functions;

import io.weir.api.annotation.PublicEvolving;

/**
 * The most general function of two connected inputs that are not keyed: any number of records and
 * side outputs per input record, with its timestamp and the task's watermark in view.
 *
 * <p>Called on the task thread of the two-input task, one record at a time and never concurrently:
 * {@link #processElement1} for records of the first input, {@link #processElement2} for the second.
 * Each input keeps its own order; between the two inputs there is no promised order. The watermark
 * in view is the minimum of the two inputs' watermarks (an idle input does not hold it back).
 * Operator state ({@code CheckpointedFunction}) is shared by both methods; keyed state and timers
 * need connected keyed streams and a {@link KeyedCoProcessFunction}. An exception fails the task,
 * and the job restarts from its latest checkpoint.
 */
@PublicEvolving
public abstract class CoProcessFunction<IN1, IN2, OUT> extends AbstractRichFunction {

  public abstract void processElement1(IN1 value, Context context, Collector<OUT> out)
      throws Exception;

  public abstract void processElement2(IN2 value, Context context, Collector<OUT> out)
      throws Exception;

  /** What the function can see of the record being processed; valid only during the call. */
  public interface Context {
    /** The record's event timestamp, or {@link Long#MIN_VALUE} when it has none. */
    long timestamp();

    /** The minimum of the two inputs' watermarks. */
    long currentWatermark();

    <X> void output(OutputTag<X> tag, X value);
  }
}
