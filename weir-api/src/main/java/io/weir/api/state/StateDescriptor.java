package io.weir.api.state;

import io.weir.api.annotation.Public;
import java.io.Serializable;
import java.util.Objects;

/**
 * Names a state and says how its values are serialized. The name identifies the state in
 * checkpoints: keep it stable across versions. The serializer defaults to {@link
 * StateSerializers#tagged()}; the heap backend uses it only in checkpoints, RocksDB on every
 * access. Give a record's or POJO's state {@link io.weir.api.types.TypeSerializer#of}: it needs no
 * Java serialization, and the heap backend restores it after the type gained or lost fields.
 */
@Public
public abstract class StateDescriptor<T> implements Serializable {
  private final String name;
  private final StateSerializer<T> serializer;

  protected StateDescriptor(String name) {
    this(name, StateSerializers.tagged());
  }

  protected StateDescriptor(String name, StateSerializer<T> serializer) {
    this.name = Objects.requireNonNull(name, "name");
    this.serializer = Objects.requireNonNull(serializer, "serializer");
  }

  public String name() {
    return name;
  }

  /** The serializer of the state's values (of list elements for a list state). */
  public StateSerializer<T> serializer() {
    return serializer;
  }
}
