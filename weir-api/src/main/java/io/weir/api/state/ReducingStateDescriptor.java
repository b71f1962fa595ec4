package io.weir.api.state;

import io.weir.api.functions.ReduceFunction;
import java.util.Objects;

/** Describes a {@link ReducingState} and its reduce function. */
public final class ReducingStateDescriptor<T> extends StateDescriptor<T> {
  private final ReduceFunction<T> reduceFunction;

  public ReducingStateDescriptor(String name, ReduceFunction<T> reduceFunction) {
    super(name);
    this.reduceFunction = Objects.requireNonNull(reduceFunction, "reduceFunction");
  }

  public ReduceFunction<T> reduceFunction() {
    return reduceFunction;
  }
}
