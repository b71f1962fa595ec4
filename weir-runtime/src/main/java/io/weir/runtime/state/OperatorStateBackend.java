package io.weir.runtime.state;

import io.weir.api.state.ListState;
import io.weir.api.state.ListStateDescriptor;
import io.weir.api.state.OperatorStateStore;
import io.weir.api.state.StateSerializer;
import io.weir.api.types.EvolvingSerializer;
import io.weir.runtime.state.OperatorStateSchemas.Kind;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Operator list and union list states of one operator in one subtask, on the heap. A state whose
 * descriptor declares an {@link EvolvingSerializer} (a {@code TypeSerializer}, say) is written with
 * it and restored through the schema it was written with (see {@link OperatorStateSchemas}); any
 * other state by Java serialization.
 */
public final class OperatorStateBackend implements OperatorStateStore {
  private static final StateSerializer<Object> UNDECLARED = StateSerializer.java();

  private final Map<String, HeapListState<Object>> listStates = new LinkedHashMap<>();
  private final Map<String, HeapListState<Object>> unionStates = new LinkedHashMap<>();
  private final Map<String, StateSerializer<Object>> listSerializers = new LinkedHashMap<>();
  private final Map<String, StateSerializer<Object>> unionSerializers = new LinkedHashMap<>();
  private final OperatorSubtaskState restored;
  private final OperatorStateSchemas schemas;

  public OperatorStateBackend(String operatorUid, OperatorSubtaskState restored) {
    this.restored = restored;
    this.schemas = new OperatorStateSchemas(operatorUid, restored.unionStates());
  }

  @Override
  public <T> ListState<T> getListState(ListStateDescriptor<T> descriptor) {
    return get(Kind.LIST, listStates, listSerializers, restored.listStates(), descriptor);
  }

  @Override
  public <T> ListState<T> getUnionListState(ListStateDescriptor<T> descriptor) {
    return get(Kind.UNION, unionStates, unionSerializers, restored.unionStates(), descriptor);
  }

  @SuppressWarnings("unchecked")
  private <T> ListState<T> get(
      Kind kind,
      Map<String, HeapListState<Object>> states,
      Map<String, StateSerializer<Object>> serializers,
      Map<String, List<byte[]>> restoredStates,
      ListStateDescriptor<T> descriptor) {
    String name = descriptor.name();
    HeapListState<Object> state = states.get(name);
    if (state == null) {
      StateSerializer<Object> writer =
          descriptor.serializer() instanceof EvolvingSerializer<?>
              ? (StateSerializer<Object>) descriptor.serializer()
              : UNDECLARED;
      List<byte[]> elements = restoredStates.getOrDefault(name, List.of());
      StateSerializer<Object> reader = schemas.readerOf(kind, name, writer, !elements.isEmpty());
      state = new HeapListState<>();
      for (byte[] element : elements) {
        state.add(reader.deserialize(element));
      }
      states.put(name, state);
      serializers.put(name, writer);
    }
    return (ListState<T>) state;
  }

  /** Serializes every state now, so the operator may change them right after. */
  public OperatorSubtaskState snapshot(Map<Integer, byte[]> keyGroups) {
    Map<String, List<byte[]>> union = serialize(unionStates, unionSerializers);
    listSerializers.forEach(
        (name, serializer) ->
            OperatorStateSchemas.maybeSnapshot(Kind.LIST, name, serializer, union));
    unionSerializers.forEach(
        (name, serializer) ->
            OperatorStateSchemas.maybeSnapshot(Kind.UNION, name, serializer, union));
    return new OperatorSubtaskState(serialize(listStates, listSerializers), union, keyGroups);
  }

  private static Map<String, List<byte[]>> serialize(
      Map<String, HeapListState<Object>> states, Map<String, StateSerializer<Object>> serializers) {
    Map<String, List<byte[]>> serialized = new LinkedHashMap<>();
    states.forEach(
        (name, state) -> {
          StateSerializer<Object> serializer = serializers.get(name);
          List<byte[]> elements = new ArrayList<>();
          for (Object element : state.get()) {
            elements.add(serializer.serialize(element));
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
