package io.weir.rocksdb;

import io.weir.api.state.Reducer;
import io.weir.api.state.ReducingState;
import io.weir.api.state.StateSerializer;

final class RocksDbReducingState<T> implements ReducingState<T> {
  private final RocksDbValueState<T> value;
  private final Reducer<T> reduceFunction;

  RocksDbReducingState(
      ColumnFamily family, StateSerializer<T> serializer, Reducer<T> reduceFunction) {
    this.value = new RocksDbValueState<>(family, serializer);
    this.reduceFunction = reduceFunction;
  }

  @Override
  public T get() {
    return value.value();
  }

  @Override
  public void add(T element) throws Exception {
    T current = value.value();
    value.update(current == null ? element : reduceFunction.reduce(current, element));
  }

  @Override
  public void clear() {
    value.clear();
  }
}
