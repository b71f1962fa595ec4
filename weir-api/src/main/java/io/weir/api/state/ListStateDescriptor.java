package io.weir.api.state;

/** Describes a {@link ListState}. */
public final class ListStateDescriptor<T> extends StateDescriptor<T> {
  public ListStateDescriptor(String name) {
    super(name);
  }

  public ListStateDescriptor(String name, StateSerializer<T> serializer) {
    super(name, serializer);
  }
}
