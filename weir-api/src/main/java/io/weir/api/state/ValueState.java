package io.weir.api.state;

/** One value per key; {@code null} when never set or cleared. */
public interface ValueState<T> extends State {
  T value();

  void update(T value);
}
