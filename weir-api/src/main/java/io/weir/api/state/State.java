package io.weir.api.state;

import io.weir.api.annotation.Public;

/** A piece of state. Keyed state is scoped to the key of the record being processed. */
@Public
public interface State {
  void clear();
}
