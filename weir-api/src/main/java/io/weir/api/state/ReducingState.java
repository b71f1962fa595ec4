package io.weir.api.state;

/** A value per key that every {@link #add} folds with the state's reduce function. */
public interface ReducingState<T> extends State {
  T get();

  void add(T value) throws Exception;
}
