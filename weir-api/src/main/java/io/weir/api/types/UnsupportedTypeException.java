package io.weir.api.types;

import io.weir.api.annotation.PublicEvolving;

/**
 * A type the default serializer cannot write: not a primitive, string, byte array, enum, record,
 * POJO, list, set or map of those, nor a type the job allowed Java serialization for. Thrown when
 * the serializer is built, so a job fails before it runs.
 */
@PublicEvolving
public final class UnsupportedTypeException extends IllegalArgumentException {
  UnsupportedTypeException(String message) {
    super(message);
  }
}
