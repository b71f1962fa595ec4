package io.weir.api.functions;

/** Emits records downstream. Valid only inside the call it was passed to. */
public interface Collector<T> {
  void collect(T record);
}
