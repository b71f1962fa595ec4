package io.weir.api.functions;

import io.weir.api.annotation.Public;

/** Emits records downstream. Valid only inside the call it was passed to. */
@Public
public interface Collector<T> {
  void collect(T record);
}
