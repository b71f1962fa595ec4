package io.weir.api.state;

import io.weir.api.annotation.Public;

/** One value per key; {@code null} when never set or cleared. */
@Public
public interface ValueState<T> extends State {
  T value();

  void update(T value);
}
