package io.weir.api.functions;

/** Keeps a record when {@link #filter} returns true. Called by the task thread. */
@FunctionalInterface
public interface FilterFunction<T> extends Function {
  boolean filter(T value) throws Exception;
}
