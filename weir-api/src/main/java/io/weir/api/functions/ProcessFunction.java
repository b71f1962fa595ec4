package io.weir.api.functions;

import io.weir.api.annotation.Public;

/** The most general per-record function: emits any number of records and side outputs. */
@Public
public abstract class ProcessFunction<IN, OUT> extends AbstractRichFunction {

  public abstract void processElement(IN value, Context context, Collector<OUT> out)
      throws Exception;

  /** What a process function can see of the record being processed. */
  public interface Context {
    /** The record's event timestamp, or {@link Long#MIN_VALUE} when it has none. */
    long timestamp();

    long currentWatermark();

    <X> void output(OutputTag<X> tag, X value);
  }
}
