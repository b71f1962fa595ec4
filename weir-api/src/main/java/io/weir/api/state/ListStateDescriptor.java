package io.weir.api.state;

import io.weir.api.annotation.Public;

/** Describes a {@link ListState}. */
@Public
public final class ListStateDescriptor<T> extends StateDescriptor<T> {
  public ListStateDescriptor(String name) {
    super(name);
  }

  public ListStateDescriptor(String name, StateSerializer<T> serializer) {
    super(name, serializer);
  }
}
