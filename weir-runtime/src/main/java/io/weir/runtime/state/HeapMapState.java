package io.weir.runtime.state;

import io.weir.api.state.MapState;
import java.util.HashMap;
import java.util.Map;

final class HeapMapState<K, V> implements MapState<K, V> {
  private final HeapKeyedStateBackend backend;
  private final HeapStateTable table;

  HeapMapState(HeapKeyedStateBackend backend, HeapStateTable table) {
    this.backend = backend;
    this.table = table;
  }

  @SuppressWarnings("unchecked")
  private HashMap<K, V> map(boolean create) {
    HashMap<K, V> map = (HashMap<K, V>) backend.get(table);
    if (map == null && create) {
      map = new HashMap<>();
      backend.put(table, map);
    }
    return map;
  }

  @Override
  public V get(K key) {
    HashMap<K, V> map = map(false);
    return map == null ? null : map.get(key);
  }

  @Override
  public void put(K key, V value) {
    map(true).put(key, value);
  }

  @Override
  public void remove(K key) {
    HashMap<K, V> map = map(false);
    if (map != null) {
      map.remove(key);
      if (map.isEmpty()) {
        backend.put(table, null);
      }
    }
  }

  @Override
  public boolean contains(K key) {
    HashMap<K, V> map = map(false);
    return map != null && map.containsKey(key);
  }

  @Override
  public Map<K, V> entries() {
    HashMap<K, V> map = map(false);
    return map == null ? Map.of() : new HashMap<>(map);
  }

  @Override
  public boolean isEmpty() {
    HashMap<K, V> map = map(false);
    return map == null || map.isEmpty();
  }

  @Override
  public void clear() {
    backend.put(table, null);
  }
}
