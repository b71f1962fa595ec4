package io.weir.api.sink;

import io.weir.api.annotation.Public;

/** Drops every record; for benchmarks. */
@Public
public final class DiscardingSink<T> implements SinkFunction<T> {
  @Override
  public void invoke(T value, Context context) {}
}
