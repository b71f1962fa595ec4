package io.weir.api.state;

import io.weir.api.annotation.Public;
import java.io.Serializable;

/**
 * What a {@link ReducingState} applies when a value is added: combines the value held so far with
 * the new one. Must be associative. Every {@code ReduceFunction} is one; the state package declares
 * its own type so that it does not depend on the functions package, which depends on it.
 */
@Public
@FunctionalInterface
public interface Reducer<T> extends Serializable {
  T reduce(T accumulated, T value) throws Exception;
}
