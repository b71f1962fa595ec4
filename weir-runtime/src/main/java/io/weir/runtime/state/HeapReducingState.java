package io.weir.runtime.state;

import io.weir.api.state.Reducer;
import io.weir.api.state.ReducingState;

final class HeapReducingState<T> implements ReducingState<T> {
  private final HeapKeyedStateBackend backend;
  private final HeapStateTable table;
  private final Reducer<T> reduceFunction;

  HeapReducingState(
      HeapKeyedStateBackend backend, HeapStateTable table, Reducer<T> reduceFunction) {
    this.backend = backend;
    this.table = table;
    this.reduceFunction = reduceFunction;
  }

  @Override
  @SuppressWarnings("unchecked")
  public T get() {
    return (T) backend.get(table);
  }

  @Override
  public void add(T value) throws Exception {
    T current = get();
    backend.put(table, current == null ? value : reduceFunction.reduce(current, value));
  }

  @Override
  public void clear() {
    backend.put(table, null);
  }
}
