package io.weir.api.state;

/** Describes a {@link ValueState}. */
public final class ValueStateDescriptor<T> extends StateDescriptor<T> {
  public ValueStateDescriptor(String name) {
    super(name);
  }

  public ValueStateDescriptor(String name, StateSerializer<T> serializer) {
    super(name, serializer);
  }
}
