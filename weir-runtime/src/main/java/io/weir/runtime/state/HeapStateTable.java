package io.weir.runtime.state;

import java.util.HashMap;
import java.util.function.BiConsumer;

/**
 * The entries of one state of a {@link HeapKeyedStateBackend}, per key group, copied on write while
 * a snapshot is being written from them.
 *
 * <p>{@link #freeze} hands the snapshot the key groups' maps as they are; from then on, until
 * {@link #thaw}, the task thread changes a key group only in a shallow copy of the snapshot's map,
 * made the first time it changes it, and a value changed in place only as a copy of its own (see
 * {@link #value}), so the snapshot's maps and values stay as they were at the barrier. A key group
 * the snapshot has written is the task thread's again ({@link #release}). Used on the task thread
 * only; the snapshot thread reads only what {@link #freeze} returned.
 */
public final class HeapStateTable implements KeyedTable {
  private final HeapKeyedStateBackend backend;
  private final String name;
  private final HashMap<Object, Object>[] groups;

  /**
   * The key groups' maps a snapshot being written holds; null when none is being written, and an
   * element null once the snapshot has written that key group.
   */
  private HashMap<Object, Object>[] frozen;

  @SuppressWarnings("unchecked")
  HeapStateTable(HeapKeyedStateBackend backend, String name, int keyGroups) {
    this.backend = backend;
    this.name = name;
    groups = new HashMap[keyGroups];
    for (int i = 0; i < keyGroups; i++) {
      groups[i] = new HashMap<>();
    }
  }

  String name() {
    return name;
  }

  /** The key groups' maps as they are now, for a snapshot; the task thread changes copies after. */
  HashMap<Object, Object>[] freeze() {
    frozen = groups.clone();
    return groups.clone();
  }

  /** The snapshot has written key group {@code index}: it is the task thread's alone again. */
  void release(int index) {
    frozen[index] = null;
  }

  /** The snapshot's write is over: nothing the table holds is shared any more. */
  void thaw() {
    frozen = null;
  }

  /** The maps of the key groups as they are now, to be written at once, on the task thread. */
  HashMap<Object, Object>[] current() {
    return groups.clone();
  }

  /** The map of key group {@code index} that the task thread may change. */
  HashMap<Object, Object> group(int index) {
    HashMap<Object, Object> group = groups[index];
    if (frozen != null && frozen[index] == group) {
      group = new HashMap<>(group);
      groups[index] = group;
    }
    return group;
  }

  /**
   * The value of {@code key} in key group {@code index}, which the caller may change in place: a
   * value a snapshot being written still holds is replaced by a copy first, unless it cannot
   * change.
   */
  Object value(int index, Object key, SharedValueCopies copies) {
    Object value = groups[index].get(key);
    if (value == null
        || frozen == null
        || frozen[index] == null
        || SharedValueCopies.isImmutable(value)) {
      return value;
    }
    HashMap<Object, Object> frozenGroup = frozen[index];
    HashMap<Object, Object> group = group(index);
    if (frozenGroup.get(key) != value) {
      return value;
    }
    Object copy = copies.copy(this, value);
    group.put(key, copy);
    return copy;
  }

  @Override
  public Object get() {
    return backend.get(this);
  }

  @Override
  public void put(Object value) {
    backend.put(this, value);
  }

  @Override
  public boolean keepsValueObjects() {
    return true;
  }

  /** Reads every entry; {@code action} must not change the values (a snapshot may hold them). */
  @Override
  public void forEach(BiConsumer<Object, Object> action) {
    for (HashMap<Object, Object> group : groups) {
      group.forEach(action);
    }
  }
}
