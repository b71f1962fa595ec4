package io.weir.api.state;

import io.weir.api.annotation.PublicEvolving;
import java.util.Map;

/**
 * A broadcast state as the keyed side of a {@code KeyedBroadcastProcessFunction} sees it: the same
 * map in every subtask, which only the broadcast side may change. Used only on the task thread;
 * values must not be changed in place.
 */
@PublicEvolving
public interface ReadOnlyBroadcastState<K, V> {
  /** The value of {@code key}, or {@code null} when the map has no entry for it. */
  V get(K key);

  boolean contains(K key);

  /** A copy of the entries; changing it does not change the state. */
  Map<K, V> entries();
}
