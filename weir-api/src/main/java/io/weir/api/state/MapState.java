package io.weir.api.state;

import java.util.Map;

/** A map per key. */
public interface MapState<K, V> extends State {
  V get(K key);

  void put(K key, V value);

  void remove(K key);

  boolean contains(K key);

  /** A snapshot of the entries, never null. */
  Map<K, V> entries();

  boolean isEmpty();
}
