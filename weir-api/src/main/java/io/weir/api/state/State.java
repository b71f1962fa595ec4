package io.weir.api.state;

/** A piece of state. Keyed state is scoped to the key of the record being processed. */
public interface State {
  void clear();
}
