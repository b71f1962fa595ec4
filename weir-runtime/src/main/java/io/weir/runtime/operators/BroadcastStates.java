package io.weir.runtime.operators;

import io.weir.api.state.BroadcastState;
import io.weir.api.state.ListState;
import io.weir.api.state.ListStateDescriptor;
import io.weir.api.state.MapStateDescriptor;
import io.weir.api.state.OperatorStateStore;
import io.weir.api.state.ReadOnlyBroadcastState;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The broadcast states of one subtask: a map per descriptor, kept on the heap and written at each
 * checkpoint into a union list state of its entries. Union list state gives every subtask of a
 * restore the entries of all old subtasks; since every subtask changed its copy the same way, the
 * copies are equal and collapse into one map, whatever the new parallelism. Used only on the task
 * thread.
 */
final class BroadcastStates {
  private static final String PREFIX = "__broadcast.";

  private final Map<String, HeapBroadcastState<Object, Object>> states = new LinkedHashMap<>();
  private final Map<String, ListState<List<Object>>> stored = new HashMap<>();
  private final String operator;

  /** Restores the states of {@code descriptors} from {@code store}. */
  BroadcastStates(
      List<MapStateDescriptor<?, ?>> descriptors, OperatorStateStore store, String operator)
      throws Exception {
    this.operator = operator;
    for (MapStateDescriptor<?, ?> descriptor : descriptors) {
      ListState<List<Object>> entries =
          store.getUnionListState(new ListStateDescriptor<>(PREFIX + descriptor.name()));
      HeapBroadcastState<Object, Object> state = new HeapBroadcastState<>();
      for (List<Object> entry : entries.get()) {
        state.put(entry.get(0), entry.get(1));
      }
      states.put(descriptor.name(), state);
      stored.put(descriptor.name(), entries);
    }
  }

  /** Writes every state into its union list state, before the operator state is snapshotted. */
  void snapshot() throws Exception {
    for (Map.Entry<String, HeapBroadcastState<Object, Object>> state : states.entrySet()) {
      List<List<Object>> entries = new ArrayList<>();
      state
          .getValue()
          .entries()
          .forEach((key, value) -> entries.add(new ArrayList<>(List.of(key, value))));
      stored.get(state.getKey()).update(entries);
    }
  }

  @SuppressWarnings("unchecked")
  <K, V> BroadcastState<K, V> get(MapStateDescriptor<K, V> descriptor) {
    HeapBroadcastState<Object, Object> state = states.get(descriptor.name());
    if (state == null) {
      throw new IllegalArgumentException(
          "The broadcast state '"
              + descriptor.name()
              + "' of "
              + operator
              + " was not declared: pass its descriptor to broadcast(...)");
    }
    return (BroadcastState<K, V>) state;
  }

  <K, V> ReadOnlyBroadcastState<K, V> readOnly(MapStateDescriptor<K, V> descriptor) {
    BroadcastState<K, V> state = get(descriptor);
    return new ReadOnlyBroadcastState<>() {
      @Override
      public V get(K key) {
        return state.get(key);
      }

      @Override
      public boolean contains(K key) {
        return state.contains(key);
      }

      @Override
      public Map<K, V> entries() {
        return state.entries();
      }
    };
  }

  private static final class HeapBroadcastState<K, V> implements BroadcastState<K, V> {
    private final Map<K, V> map = new HashMap<>();

    @Override
    public V get(K key) {
      return map.get(key);
    }

    @Override
    public boolean contains(K key) {
      return map.containsKey(key);
    }

    @Override
    public Map<K, V> entries() {
      return new LinkedHashMap<>(map);
    }

    @Override
    public void put(K key, V value) {
      map.put(key, value);
    }

    @Override
    public void remove(K key) {
      map.remove(key);
    }
  }
}
