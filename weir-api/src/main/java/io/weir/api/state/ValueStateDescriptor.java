package io.weir.api.state;

import io.weir.api.annotation.Public;

/** Describes a {@link ValueState}. */
@Public
public final class ValueStateDescriptor<T> extends StateDescriptor<T> {
  public ValueStateDescriptor(String name) {
    super(name);
  }

  public ValueStateDescriptor(String name, StateSerializer<T> serializer) {
    super(name, serializer);
  }
}
