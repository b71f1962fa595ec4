package io.weir.rocksdb;

import io.weir.api.state.ListState;
import io.weir.api.state.StateSerializer;
import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.List;

/** A list as one value: each element's length, then its bytes. */
final class RocksDbListState<T> implements ListState<T> {
  private final ColumnFamily family;
  private final StateSerializer<T> serializer;

  RocksDbListState(ColumnFamily family, StateSerializer<T> serializer) {
    this.family = family;
    this.serializer = serializer;
  }

  @Override
  public List<T> get() {
    byte[] bytes = family.get(family.currentPrefix());
    List<T> elements = new ArrayList<>();
    if (bytes == null) {
      return elements;
    }
    ByteBuffer buffer = ByteBuffer.wrap(bytes);
    while (buffer.hasRemaining()) {
      byte[] element = new byte[buffer.getInt()];
      buffer.get(element);
      elements.add(serializer.deserialize(element));
    }
    return elements;
  }

  @Override
  public void add(T value) {
    addAll(List.of(value));
  }

  @Override
  public void addAll(List<T> values) {
    if (values.isEmpty()) {
      return;
    }
    byte[] current = family.get(family.currentPrefix());
    byte[] added = encode(values);
    if (current == null) {
      family.put(family.currentPrefix(), added);
      return;
    }
    byte[] both = new byte[current.length + added.length];
    System.arraycopy(current, 0, both, 0, current.length);
    System.arraycopy(added, 0, both, current.length, added.length);
    family.put(family.currentPrefix(), both);
  }

  @Override
  public void update(List<T> values) {
    if (values.isEmpty()) {
      clear();
    } else {
      family.put(family.currentPrefix(), encode(values));
    }
  }

  @Override
  public void clear() {
    family.delete(family.currentPrefix());
  }

  private byte[] encode(List<T> values) {
    List<byte[]> serialized = new ArrayList<>(values.size());
    int length = 0;
    for (T value : values) {
      byte[] bytes = serializer.serialize(value);
      serialized.add(bytes);
      length += Integer.BYTES + bytes.length;
    }
    ByteBuffer buffer = ByteBuffer.allocate(length);
    serialized.forEach(bytes -> buffer.putInt(bytes.length).put(bytes));
    return buffer.array();
  }
}
