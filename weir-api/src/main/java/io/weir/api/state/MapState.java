package io.weir.api.state;

import io.weir.api.annotation.Public;
import java.util.Map;

/**
 * A map per key, in keyed state: every method reads or writes the map of the current key (the key
 * of the record or timer being processed). Used only on the task thread. Keys and values are
 * serialized into every checkpoint.
 */
@Public
public interface MapState<K, V> extends State {
  /** The value of {@code key}, or {@code null} when the map has no entry for it. */
  V get(K key);

  /** Sets the value of {@code key}, replacing any previous one. */
  void put(K key, V value);

  /** Removes the entry of {@code key}; nothing happens when there is none. */
  void remove(K key);

  /** Whether the map has an entry for {@code key}. */
  boolean contains(K key);

  /** A copy of the entries, never null; changing it does not change the state. */
  Map<K, V> entries();

  boolean isEmpty();
}
