package io.weir.api.functions;

import io.weir.api.annotation.PublicEvolving;

/**
 * Makes one result of a window join from a pair: a record of the first stream and one of the second
 * with the same key in the same window.
 *
 * <p>Called on the task thread that runs the join's window, once for every such pair each time the
 * window fires (so exactly once per pair for a window that fires once): for each of the first
 * stream's records in the order the window holds them, with each of the second's in that order.
 * Nothing else is reachable from it (no key, no window, no state). An exception fails the task,
 * which restarts from the last checkpoint.
 */
@PublicEvolving
@FunctionalInterface
public interface JoinFunction<FIRST, SECOND, OUT> extends Function {
  OUT join(FIRST first, SECOND second) throws Exception;
}
