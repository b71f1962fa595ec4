package io.weir.api.state;

import io.weir.api.annotation.Public;

/** A value per key that every {@link #add} folds with the state's reduce function. */
@Public
public interface ReducingState<T> extends State {
  T get();

  void add(T value) throws Exception;
}
