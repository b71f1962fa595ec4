package io.weir.api.functions;

import io.weir.api.annotation.PublicEvolving;

/**
 * Turns a record of either of two connected inputs into one output record.
 *
 * <p>Called on the task thread of the two-input task, one record at a time and never concurrently:
 * {@link #map1} for records of the first input, {@link #map2} for the second. Each input keeps its
 * own order; between the two inputs there is no promised order. On connected keyed streams the
 * record's key is the current key of keyed state while either method runs. An exception fails the
 * task, and the job restarts from its latest checkpoint.
 */
@PublicEvolving
public interface CoMapFunction<IN1, IN2, OUT> extends Function {
  OUT map1(IN1 value) throws Exception;

  OUT map2(IN2 value) throws Exception;
}
