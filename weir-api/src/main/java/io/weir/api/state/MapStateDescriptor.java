package io.weir.api.state;

import io.weir.api.annotation.Public;
import java.util.Objects;

/** Describes a {@link MapState}: its name and the serializers of its keys and values. */
@Public
public final class MapStateDescriptor<K, V> extends StateDescriptor<V> {
  private final StateSerializer<K> keySerializer;

  public MapStateDescriptor(String name) {
    this(name, StateSerializers.tagged(), StateSerializers.tagged());
  }

  public MapStateDescriptor(
      String name, StateSerializer<K> keySerializer, StateSerializer<V> valueSerializer) {
    super(name, valueSerializer);
    this.keySerializer = Objects.requireNonNull(keySerializer, "keySerializer");
  }

  /** The serializer of the map's keys; equal keys must give equal bytes. */
  public StateSerializer<K> keySerializer() {
    return keySerializer;
  }
}
