package io.weir.api.sink;

/** Drops every record; for benchmarks. */
public final class DiscardingSink<T> implements SinkFunction<T> {
  @Override
  public void invoke(T value, Context context) {}
}
