package io.weir.api.state;

import io.weir.api.annotation.Public;
import java.util.Objects;

/**
 * Describes a {@link ReducingState} and its reduce function (a {@code ReduceFunction} or any {@link
 * Reducer}).
 */
@Public
public final class ReducingStateDescriptor<T> extends StateDescriptor<T> {
  private final Reducer<T> reduceFunction;

  public ReducingStateDescriptor(String name, Reducer<T> reduceFunction) {
    this(name, reduceFunction, StateSerializers.tagged());
  }

  public ReducingStateDescriptor(
      String name, Reducer<T> reduceFunction, StateSerializer<T> serializer) {
    super(name, serializer);
    this.reduceFunction = Objects.requireNonNull(reduceFunction, "reduceFunction");
  }

  public Reducer<T> reduceFunction() {
    return reduceFunction;
  }
}
