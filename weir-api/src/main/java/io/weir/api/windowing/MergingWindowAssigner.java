package io.weir.api.windowing;

import io.weir.api.annotation.PublicEvolving;

/**
 * An assigner whose windows merge: every window it assigns to a record is merged, in the key's
 * state, with each of the key's open windows it {@link TimeWindow#intersects intersects}, into
 * their {@link TimeWindow#cover cover}; the contents of the merged windows are combined
 * (accumulators with {@link io.weir.api.functions.AggregateFunction#merge}, reduced values with the
 * reduce function, element lists by concatenation) and the merged window fires at the cover's end.
 *
 * <p>Like every assigner, called on the task thread of the window, once per record, before the
 * record's state is touched; it must not keep state of its own (a copy runs in each subtask and
 * none is checkpointed).
 */
@PublicEvolving
public interface MergingWindowAssigner<T> extends WindowAssigner<T> {}
