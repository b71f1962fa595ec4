package io.weir.runtime.state;

import io.weir.api.state.ValueState;

final class HeapValueState<T> implements ValueState<T> {
  private final HeapKeyedStateBackend backend;
  private final HeapStateTable table;

  HeapValueState(HeapKeyedStateBackend backend, HeapStateTable table) {
    this.backend = backend;
    this.table = table;
  }

  @Override
  @SuppressWarnings("unchecked")
  public T value() {
    return (T) backend.get(table);
  }

  @Override
  public void update(T value) {
    backend.put(table, value);
  }

  @Override
  public void clear() {
    backend.put(table, null);
  }
}
