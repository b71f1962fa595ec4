package io.weir.runtime.state;

import io.weir.api.state.ListState;
import io.weir.api.state.ListStateDescriptor;
import io.weir.api.state.OperatorStateStore;
import io.weir.api.state.StateSerializer;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/** Operator list and union list states of one operator in one subtask, on the heap. */
public final class OperatorStateBackend implements OperatorStateStore {
  private static final StateSerializer<Object> SERIALIZER = StateSerializer.java();

  private final Map<String, HeapListState<Object>> listStates = new LinkedHashMap<>();
  private final Map<String, HeapListState<Object>> unionStates = new LinkedHashMap<>();
  private final OperatorSubtaskState restored;

  public OperatorStateBackend(OperatorSubtaskState restored) {
    this.restored = restored;
  }

  @Override
  public <T> ListState<T> getListState(ListStateDescriptor<T> descriptor) {
    return get(listStates, restored.listStates(), descriptor.name());
  }

  @Override
  public <T> ListState<T> getUnionListState(ListStateDescriptor<T> descriptor) {
    return get(unionStates, restored.unionStates(), descriptor.name());
  }

  @SuppressWarnings("unchecked")
  private <T> ListState<T> get(
      Map<String, HeapListState<Object>> states,
      Map<String, List<byte[]>> restoredStates,
      String name) {
    HeapListState<Object> state = states.get(name);
    if (state == null) {
      state = new HeapListState<>();
      for (byte[] element : restoredStates.getOrDefault(name, List.of())) {
        state.add(SERIALIZER.deserialize(element));
      }
      states.put(name, state);
    }
    return (ListState<T>) state;
  }

  /** Serializes every state now, so the operator may change them right after. */
  public OperatorSubtaskState snapshot(Map<Integer, byte[]> keyGroups) {
    return new OperatorSubtaskState(serialize(listStates), serialize(unionStates), keyGroups);
  }

  private static Map<String, List<byte[]>> serialize(Map<String, HeapListState<Object>> states) {
    Map<String, List<byte[]>> serialized = new LinkedHashMap<>();
    states.forEach(
        (name, state) -> {
          List<byte[]> elements = new ArrayList<>();
          for (Object element : state.get()) {
            elements.add(SERIALIZER.serialize(element));
          }
          serialized.put(name, elements);
        });
    return serialized;
  }

  /** A list on the heap. */
  static final class HeapListState<T> implements ListState<T> {
    private final List<T> elements = new ArrayList<>();

    @Override
    public List<T> get() {
      return List.copyOf(elements);
    }

    @Override
    public void add(T value) {
      elements.add(value);
    }

    @Override
    public void addAll(List<T> values) {
      elements.addAll(values);
    }

    @Override
    public void update(List<T> values) {
      elements.clear();
      elements.addAll(values);
    }

    @Override
    public void clear() {
      elements.clear();
    }
  }
}
