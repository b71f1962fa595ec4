package io.weir.rocksdb;

import io.weir.api.state.StateSerializer;
import io.weir.runtime.state.KeyedTable;
import java.util.function.BiConsumer;

/** An operator's own table (timers, window contents) in a column family of its own. */
final class RocksDbTable implements KeyedTable {
  private final ColumnFamily family;
  private final StateSerializer<Object> valueSerializer;
  private final StateSerializer<Object> keySerializer;

  RocksDbTable(
      ColumnFamily family,
      StateSerializer<Object> keySerializer,
      StateSerializer<Object> valueSerializer) {
    this.family = family;
    this.keySerializer = keySerializer;
    this.valueSerializer = valueSerializer;
  }

  @Override
  public Object get() {
    byte[] bytes = family.get(family.currentPrefix());
    return bytes == null ? null : valueSerializer.deserialize(bytes);
  }

  @Override
  public void put(Object value) {
    if (value == null) {
      family.delete(family.currentPrefix());
    } else {
      family.put(family.currentPrefix(), valueSerializer.serialize(value));
    }
  }

  @Override
  public void forEach(BiConsumer<Object, Object> action) {
    family.forEach(
        (key, value) ->
            action.accept(
                keySerializer.deserialize(StateKeys.recordKeyOf(key)),
                valueSerializer.deserialize(value)));
  }
}
