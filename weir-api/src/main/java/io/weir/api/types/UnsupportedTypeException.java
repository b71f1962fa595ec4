package io.weir.api.types;

import io.weir.api.annotation.PublicEvolving;

/**
 * A type the default serializer cannot write: not a primitive, string, byte array, enum, record,
 * POJO, list, set or map of those, nor a type the job allowed Java serialization for. Thrown when
 * the serializer is built, so a job fails before it runs. The message names the type asked for and,
 * when the cause is in one of its fields, the field's path and type.
 */
@PublicEvolving
public final class UnsupportedTypeException extends IllegalArgumentException {
  private final String type;
  private final String field;
  private final String reason;

  UnsupportedTypeException(String type, String field, String reason) {
    this(null, type, field, reason);
  }

  private UnsupportedTypeException(String root, String type, String field, String reason) {
    super(
        (field.isEmpty()
                ? "type " + type
                : (root == null ? "" : "type " + root + ": ")
                    + "field '"
                    + field
                    + "' of type "
                    + type)
            + " has no serializer: "
            + reason
            + "; make it a record or a POJO, or allow Java serialization for it");
    this.type = type;
    this.field = field;
    this.reason = reason;
  }

  /** The same failure, found while building the serializer of {@code root}. */
  UnsupportedTypeException in(Class<?> root) {
    return field.isEmpty()
        ? this
        : new UnsupportedTypeException(root.getName(), type, field, reason);
  }
}
