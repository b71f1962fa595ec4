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
 * <p>{@link #merge} is called when windows merge (session windows): it combines the accumulators of
 * two sessions of the same key that a record joined into one. It must be associative and may return
 * either argument, changed, or a new accumulator.
 */
@Public
public interface AggregateFunction<IN, ACC, OUT> extends Function {
  /** A new, empty accumulator. */
  ACC createAccumulator();

  /** Adds one record; returns the accumulator that holds it. */
  ACC add(IN value, ACC accumulator);

  /** The window's result from its accumulator; must not change the accumulator. */
  OUT getResult(ACC accumulator);

  /** Combines the accumulators of two windows of one key that merge (see above). */
  ACC merge(ACC a, ACC b);
}
