package io.weir.runtime.state;

import io.weir.api.state.ListState;
import java.util.ArrayList;
import java.util.List;

final class HeapKeyedListState<T> implements ListState<T> {
  private final HeapKeyedStateBackend backend;
  private final HeapStateTable table;

  HeapKeyedListState(HeapKeyedStateBackend backend, HeapStateTable table) {
    this.backend = backend;
    this.table = table;
  }

  @SuppressWarnings("unchecked")
  private ArrayList<T> list(boolean create) {
    ArrayList<T> list = (ArrayList<T>) backend.get(table);
    if (list == null && create) {
      list = new ArrayList<>();
      backend.put(table, list);
    }
    return list;
  }

  @Override
  public List<T> get() {
    ArrayList<T> list = list(false);
    return list == null ? List.of() : new ArrayList<>(list);
  }

  @Override
  public void add(T value) {
    list(true).add(value);
  }

  @Override
  public void addAll(List<T> values) {
    list(true).addAll(values);
  }

  @Override
  public void update(List<T> values) {
    backend.put(table, values.isEmpty() ? null : new ArrayList<>(values));
  }

  @Override
  public void clear() {
    backend.put(table, null);
  }
}
