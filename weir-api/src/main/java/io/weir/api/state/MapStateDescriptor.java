package io.weir.api.state;

/** Describes a {@link MapState}. */
public final class MapStateDescriptor<K, V> extends StateDescriptor<V> {
  public MapStateDescriptor(String name) {
    super(name);
  }
}
