package io.weir.api.functions;

import io.weir.api.annotation.PublicEvolving;

/**
 * Turns a record of either of two connected inputs into zero or more output records, emitted
 * through the collector before returning; they keep the input record's timestamp.
 *
 * <p>Called on the task thread of the two-input task, one record at a time and never concurrently:
 * {@link #flatMap1} for records of the first input, {@link #flatMap2} for the second. Each input
 * keeps its own order; between the two inputs there is no promised order. On connected keyed
 * streams the record's key is the current key of keyed state while either method runs. An exception
 * fails the task, and the job restarts from its latest checkpoint.
 */
@PublicEvolving
public interface CoFlatMapFunction<IN1, IN2, OUT> extends Function {
  void flatMap1(IN1 value, Collector<OUT> out) throws Exception;

  void flatMap2(IN2 value, Collector<OUT> out) throws Exception;
}
