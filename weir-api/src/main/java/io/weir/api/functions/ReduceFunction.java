package io.weir.api.functions;

import io.weir.api.annotation.Public;
import io.weir.api.state.Reducer;

/** Combines two values of one key into one. Must be associative. */
@Public
@FunctionalInterface
public interface ReduceFunction<T> extends Function, Reducer<T> {
  @Override
  T reduce(T accumulated, T value) throws Exception;
}
