package io.weir.api.functions;

/** Combines two values of one key into one. Must be associative. */
@FunctionalInterface
public interface ReduceFunction<T> extends Function {
  T reduce(T accumulated, T value) throws Exception;
}
