package io.weir.rocksdb;

import io.weir.api.state.StateSerializer;
import io.weir.api.state.ValueState;

final class RocksDbValueState<T> implements ValueState<T> {
  private final ColumnFamily family;
  private final StateSerializer<T> serializer;

  RocksDbValueState(ColumnFamily family, StateSerializer<T> serializer) {
    this.family = family;
    this.serializer = serializer;
  }

  @Override
  public T value() {
    byte[] bytes = family.get(family.currentPrefix());
    return bytes == null ? null : serializer.deserialize(bytes);
  }

  @Override
  public void update(T value) {
    if (value == null) {
      clear();
    } else {
      family.put(family.currentPrefix(), serializer.serialize(value));
    }
  }

  @Override
  public void clear() {
    family.delete(family.currentPrefix());
  }
}
