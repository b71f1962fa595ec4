package io.weir.api.types;

import io.weir.api.annotation.PublicEvolving;

/**
 * A value was written with a field of one type and the current type declares the field with
 * another: the bytes cannot be read without guessing, so the restore stops and names the field.
 */
@PublicEvolving
public final class TypeChangedException extends IllegalStateException {
  private final String field;

  /**
   * @param field the field's path from the top-level type, empty for the value itself
   * @param writtenType the type the bytes were written with
   * @param currentType the type the job declares now
   */
  public TypeChangedException(String field, String writtenType, String currentType) {
    super(
        (field.isEmpty() ? "the value" : "field '" + field + "'")
            + " changed type from "
            + writtenType
            + " to "
            + currentType);
    this.field = field;
  }

  /** The field's path from the top-level type, such as {@code address.zip}; empty for the value. */
  public String field() {
    return field;
  }
}
