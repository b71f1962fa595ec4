package io.weir.runtime.sink.twophase;

import io.weir.api.state.ListState;
import io.weir.api.state.ListStateDescriptor;
import io.weir.api.state.OperatorStateStore;
import io.weir.api.state.StateSerializer;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * Operator state that, like the runtime, turns every list element into bytes with Java
 * serialization at a snapshot and back at a restore, so a restore never shares objects with the
 * crashed instance.
 */
final class FakeOperatorStateStore implements OperatorStateStore {
  private final Map<String, List<byte[]>> restored;
  private final Map<String, FakeListState<?>> states = new HashMap<>();

  FakeOperatorStateStore(Map<String, List<byte[]>> restored) {
    this.restored = Map.copyOf(restored);
  }

  @Override
  public <T> ListState<T> getListState(ListStateDescriptor<T> descriptor) {
    StateSerializer<T> serializer = StateSerializer.java();
    List<T> elements =
        restored.getOrDefault(descriptor.name(), List.of()).stream()
            .map(serializer::deserialize)
            .toList();
    FakeListState<T> state = new FakeListState<>(elements);
    states.put(descriptor.name(), state);
    return state;
  }

  @Override
  public <T> ListState<T> getUnionListState(ListStateDescriptor<T> descriptor) {
    return getListState(descriptor);
  }

  Map<String, List<byte[]>> snapshot() {
    StateSerializer<Object> serializer = StateSerializer.java();
    Map<String, List<byte[]>> bytes = new HashMap<>();
    states.forEach(
        (name, state) -> bytes.put(name, state.get().stream().map(serializer::serialize).toList()));
    return bytes;
  }
}
