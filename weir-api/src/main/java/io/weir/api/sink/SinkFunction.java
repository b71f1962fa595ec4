package io.weir.api.sink;

import io.weir.api.annotation.Public;
import io.weir.api.functions.Function;

/**
 * Writes records out of the job. {@link #invoke} is called on the task thread, one record at a
 * time. A sink that must not lose or repeat records across failures extends {@link
 * TwoPhaseCommitSinkFunction}.
 */
@Public
@FunctionalInterface
public interface SinkFunction<T> extends Function {
  void invoke(T value, Context context) throws Exception;

  /** The record being written. */
  interface Context {
    /** Its event timestamp, or {@link Long#MIN_VALUE}. */
    long timestamp();

    long currentWatermark();

    long currentProcessingTime();
  }
}
