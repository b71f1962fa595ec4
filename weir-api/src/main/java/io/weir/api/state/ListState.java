package io.weir.api.state;

import io.weir.api.annotation.Public;
import java.util.List;

/** A list per key (keyed state) or per subtask (operator state). */
@Public
public interface ListState<T> extends State {
  /** A snapshot of the elements, never null. */
  List<T> get();

  void add(T value);

  void addAll(List<T> values);

  /** Replaces the whole list. */
  void update(List<T> values);
}
