package io.weir.api.functions;

import io.weir.api.annotation.Public;

/** Keeps a record when {@link #filter} returns true. Called by the task thread. */
@Public
@FunctionalInterface
public interface FilterFunction<T> extends Function {
  boolean filter(T value) throws Exception;
}
