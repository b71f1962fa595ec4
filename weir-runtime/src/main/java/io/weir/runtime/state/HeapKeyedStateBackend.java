package io.weir.runtime.state;

import io.weir.api.state.ListState;
import io.weir.api.state.ListStateDescriptor;
import io.weir.api.state.MapState;
import io.weir.api.state.MapStateDescriptor;
import io.weir.api.state.ReducingState;
import io.weir.api.state.ReducingStateDescriptor;
import io.weir.api.state.StateSerializer;
import io.weir.api.state.ValueState;
import io.weir.api.state.ValueStateDescriptor;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * Keyed state of one operator in one subtask, on the heap, organised by key group so that a
 * snapshot is a map from key group to bytes and a restore with another parallelism can take whole
 * key groups. The task thread sets the current key before each record or timer.
 */
public final class HeapKeyedStateBackend implements KeyedStateBackend {
  private static final StateSerializer<Map<String, HashMap<Object, Object>>> SERIALIZER =
      StateSerializer.java();

  private final KeyGroupRange range;
  private final int maxParallelism;
  private final Map<String, StateTable> tables = new LinkedHashMap<>();
  private Object currentKey;
  private int currentKeyGroupIndex;

  public HeapKeyedStateBackend(
      KeyGroupRange range, int maxParallelism, OperatorSubtaskState restored) {
    this.range = range;
    this.maxParallelism = maxParallelism;
    restored.keyGroups().forEach(this::restoreKeyGroup);
  }

  @Override
  public void setCurrentKey(Object key) {
    int keyGroup = KeyGroups.keyGroupOf(key, maxParallelism);
    if (!range.contains(keyGroup)) {
      throw new IllegalStateException(
          "Key " + key + " belongs to key group " + keyGroup + ", not to this subtask's " + range);
    }
    currentKey = key;
    currentKeyGroupIndex = keyGroup - range.start();
  }

  @Override
  public Object currentKey() {
    return currentKey;
  }

  @Override
  public KeyGroupRange range() {
    return range;
  }

  public int maxParallelism() {
    return maxParallelism;
  }

  /** The table of one named state; created on first use. */
  @Override
  public StateTable table(String name) {
    return tables.computeIfAbsent(name, n -> new StateTable(this, range.size()));
  }

  /** Timers in a table of the state: see {@link HeapTimerQueue}. */
  @Override
  public KeyedTimerQueue timerQueue(String name) {
    return new HeapTimerQueue(this, table(name));
  }

  @Override
  public <T> ValueState<T> getState(ValueStateDescriptor<T> descriptor) {
    return new HeapValueState<>(this, table(descriptor.name()));
  }

  @Override
  public <T> ListState<T> getListState(ListStateDescriptor<T> descriptor) {
    return new HeapKeyedListState<>(this, table(descriptor.name()));
  }

  @Override
  public <K, V> MapState<K, V> getMapState(MapStateDescriptor<K, V> descriptor) {
    return new HeapMapState<>(this, table(descriptor.name()));
  }

  @Override
  public <T> ReducingState<T> getReducingState(ReducingStateDescriptor<T> descriptor) {
    return new HeapReducingState<>(this, table(descriptor.name()), descriptor.reduceFunction());
  }

  Object get(StateTable table) {
    return table.group(currentKeyGroupIndex).get(currentKey);
  }

  void put(StateTable table, Object value) {
    if (currentKey == null) {
      throw new IllegalStateException("Keyed state is used outside of a keyed context");
    }
    if (value == null) {
      table.group(currentKeyGroupIndex).remove(currentKey);
    } else {
      table.group(currentKeyGroupIndex).put(currentKey, value);
    }
  }

  /** Serializes every non-empty key group now, on the task thread. */
  @Override
  public Map<Integer, byte[]> snapshot(long checkpointId) {
    Map<Integer, byte[]> keyGroups = new HashMap<>();
    for (int index = 0; index < range.size(); index++) {
      HashMap<String, HashMap<Object, Object>> content = new HashMap<>();
      for (Map.Entry<String, StateTable> entry : tables.entrySet()) {
        HashMap<Object, Object> group = entry.getValue().group(index);
        if (!group.isEmpty()) {
          content.put(entry.getKey(), group);
        }
      }
      if (!content.isEmpty()) {
        keyGroups.put(range.start() + index, SERIALIZER.serialize(content));
      }
    }
    return keyGroups;
  }

  /** Nothing to release: the heap is the garbage collector's. */
  @Override
  public void close() {}

  private void restoreKeyGroup(int keyGroup, byte[] bytes) {
    if (!range.contains(keyGroup)) {
      return;
    }
    if (bytes.length < 2 || (bytes[0] & 0xff) != 0xac || (bytes[1] & 0xff) != 0xed) {
      throw new IllegalStateException(
          "The restored keyed state of key group "
              + keyGroup
              + " was not written by the heap state backend; restore it with the backend that"
              + " wrote it (--state-backend rocksdb)");
    }
    int index = keyGroup - range.start();
    SERIALIZER
        .deserialize(bytes)
        .forEach((name, entries) -> table(name).group(index).putAll(entries));
  }

  /** The entries of one state, per key group. */
  public static final class StateTable implements KeyedTable {
    private final HeapKeyedStateBackend backend;
    private final HashMap<Object, Object>[] groups;

    @SuppressWarnings("unchecked")
    StateTable(HeapKeyedStateBackend backend, int keyGroups) {
      this.backend = backend;
      groups = new HashMap[keyGroups];
      for (int i = 0; i < keyGroups; i++) {
        groups[i] = new HashMap<>();
      }
    }

    HashMap<Object, Object> group(int index) {
      return groups[index];
    }

    @Override
    public Object get() {
      return backend.get(this);
    }

    @Override
    public void put(Object value) {
      backend.put(this, value);
    }

    @Override
    public void forEach(java.util.function.BiConsumer<Object, Object> action) {
      for (HashMap<Object, Object> group : groups) {
        group.forEach(action);
      }
    }
  }
}
