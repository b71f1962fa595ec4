package io.weir.runtime.state;

import java.util.function.BiConsumer;

/**
 * A state of the operator itself (timers, window contents): one value per key, read and written for
 * the backend's current key. A value changed in place must be written back with {@link #put}: a
 * backend that serializes (RocksDB) keeps only what was put. Used on the task thread only.
 */
public interface KeyedTable {
  /** The current key's value, or null. */
  Object get();

  /** Sets the current key's value; null removes it. */
  void put(Object value);

  /**
   * True when the table keeps the value objects themselves (the heap), so that a value changed in
   * place is already what the table holds and need not be put again; false when it keeps only what
   * was put (a backend that serializes).
   */
  default boolean keepsValueObjects() {
    return false;
  }

  /** Every (key, value) of this table in this subtask, for rebuilding timer queues on restore. */
  void forEach(BiConsumer<Object, Object> action);
}
