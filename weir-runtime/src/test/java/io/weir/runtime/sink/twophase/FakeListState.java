package io.weir.runtime.sink.twophase;

import io.weir.api.state.ListState;
import java.util.ArrayList;
import java.util.List;

/** A list state on the heap, as the runtime keeps operator state between snapshots. */
final class FakeListState<T> implements ListState<T> {
  private final List<T> elements = new ArrayList<>();

  FakeListState(List<T> restored) {
    elements.addAll(restored);
  }

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
