package io.weir.api.state;

import io.weir.api.annotation.PublicEvolving;

/**
 * A broadcast state as the broadcast side of a {@code KeyedBroadcastProcessFunction} sees it. Every
 * subtask receives every broadcast element and must change its copy the same way
 * (deterministically, from the element alone), so that all copies stay equal: a checkpoint stores
 * each subtask's copy, and a restore at any parallelism gives every new subtask one of them.
 */
@PublicEvolving
public interface BroadcastState<K, V> extends ReadOnlyBroadcastState<K, V> {
  void put(K key, V value);

  void remove(K key);
}
