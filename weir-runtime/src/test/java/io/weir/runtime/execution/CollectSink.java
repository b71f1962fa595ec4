package io.weir.runtime.execution;

import io.weir.api.sink.SinkFunction;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentLinkedQueue;

/** Collects records in memory under a name, for assertions of tests in this JVM. */
public final class CollectSink<T> implements SinkFunction<T> {
  private static final Map<String, ConcurrentLinkedQueue<Object>> RESULTS =
      new ConcurrentHashMap<>();
  private final String name;

  public CollectSink(String name) {
    this.name = name;
    RESULTS.put(name, new ConcurrentLinkedQueue<>());
  }

  @Override
  public void invoke(T value, Context context) {
    RESULTS.get(name).add(value);
  }

  @SuppressWarnings("unchecked")
  public static <T> List<T> results(String name) {
    return (List<T>) List.copyOf(RESULTS.get(name));
  }
}
