package io.weir.rocksdb;

import io.weir.api.state.ListState;
import io.weir.api.state.StateSerializer;
import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.List;

/**
 * A list as one RocksDB value of framed elements (each element's length, then its bytes). Adding is
 * a merge that appends the new frames without reading the list, so it costs the same however long
 * the list is; RocksDB concatenates the frames when the list is read or compacted.
 */
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
    byte[] element = serializer.serialize(value);
    family.append(
        family.currentPrefix(),
        ByteBuffer.allocate(Integer.BYTES + element.length)
            .putInt(element.length)
            .put(element)
            .array());
  }

  @Override
  public void addAll(List<T> values) {
    if (!values.isEmpty()) {
      family.append(family.currentPrefix(), encode(values));
    }
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
