package io.weir.api.functions;

import io.weir.api.annotation.Public;

/**
 * Incremental aggregation of a window's records into an accumulator, one accumulator per key and
 * window.
 *
 * <p>Called on the task thread, one record at a time: {@link #createAccumulator} when the first
 * record of a key arrives in a window, then {@link #add} for each record (that one included), and
 * {@link #getResult} each time the window fires (at its end, and again for each late record within
 * the allowed lateness). The accumulator is kept in keyed state, so it is serialized into every
 * checkpoint and must be serializable; {@code add} may return the accumulator it was given,
 * changed, or a new one.
 *
 * <p>{@link #merge} is never called today: no window assigner of Weir merges windows (there are no
 * session windows yet). Implement it correctly anyway — associative, combining two accumulators of
 * the same key and window — since merging windows will call it.
 */
@Public
public interface AggregateFunction<IN, ACC, OUT> extends Function {
  /** A new, empty accumulator. */
  ACC createAccumulator();

  /** Adds one record; returns the accumulator that holds it. */
  ACC add(IN value, ACC accumulator);

  /** The window's result from its accumulator; must not change the accumulator. */
  OUT getResult(ACC accumulator);

  /** Combines two accumulators; not called by any window assigner today (see above). */
  ACC merge(ACC a, ACC b);
}
