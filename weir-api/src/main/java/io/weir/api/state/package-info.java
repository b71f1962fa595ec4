/**
 * State a function keeps: keyed state (value, list, map, reducing) scoped to the current key and
 * redistributed by key group on rescale, operator state per subtask, and the backends that hold it.
 */
package io.weir.api.state;
