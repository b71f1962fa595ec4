package io.weir.rocksdb;

import io.weir.api.state.MapState;
import io.weir.api.state.StateSerializer;
import java.util.Arrays;
import java.util.HashMap;
import java.util.Map;

/** One RocksDB entry per map entry, under the current key's prefix: maps need not fit in memory. */
final class RocksDbMapState<K, V> implements MapState<K, V> {
  private final ColumnFamily family;
  private final StateSerializer<K> keySerializer;
  private final StateSerializer<V> valueSerializer;

  RocksDbMapState(
      ColumnFamily family, StateSerializer<K> keySerializer, StateSerializer<V> valueSerializer) {
    this.family = family;
    this.keySerializer = keySerializer;
    this.valueSerializer = valueSerializer;
  }

  private byte[] entryKey(K key) {
    return StateKeys.withMapKey(family.currentPrefix(), keySerializer.serialize(key));
  }

  @Override
  public V get(K key) {
    byte[] bytes = family.get(entryKey(key));
    return bytes == null ? null : valueSerializer.deserialize(bytes);
  }

  @Override
  public void put(K key, V value) {
    family.put(entryKey(key), valueSerializer.serialize(value));
  }

  @Override
  public void remove(K key) {
    family.delete(entryKey(key));
  }

  @Override
  public boolean contains(K key) {
    return family.get(entryKey(key)) != null;
  }

  @Override
  public Map<K, V> entries() {
    byte[] prefix = family.currentPrefix();
    Map<K, V> entries = new HashMap<>();
    family.forEachWithPrefix(
        prefix,
        (entryKey, value) ->
            entries.put(
                keySerializer.deserialize(
                    Arrays.copyOfRange(entryKey, prefix.length, entryKey.length)),
                valueSerializer.deserialize(value)));
    return entries;
  }

  @Override
  public boolean isEmpty() {
    boolean[] empty = {true};
    family.forEachWithPrefix(family.currentPrefix(), (key, value) -> empty[0] = false);
    return empty[0];
  }

  @Override
  public void clear() {
    byte[] prefix = family.currentPrefix();
    family.forEachWithPrefix(prefix, (key, value) -> family.delete(key));
  }
}
