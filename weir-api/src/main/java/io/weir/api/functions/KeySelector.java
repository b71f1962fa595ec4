package io.weir.api.functions;

import io.weir.api.annotation.Public;

/**
 * Extracts the key of a record. Must be deterministic: the same record gives an equal key with the
 * same {@code hashCode} in every process, because the key decides the key group and so the subtask
 * and the state the record belongs to.
 */
@Public
@FunctionalInterface
public interface KeySelector<T, K> extends Function {
  K getKey(T value) throws Exception;
}
