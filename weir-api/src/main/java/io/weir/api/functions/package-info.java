/**
 * The functions a job passes to its transformations (map, flatMap, filter, process, reduce,
 * aggregate, key selectors), their rich variants with a lifecycle and a {@link
 * io.weir.api.functions.RuntimeContext}, timers and side outputs.
 */
package io.weir.api.functions;
