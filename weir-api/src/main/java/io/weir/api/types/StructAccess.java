package io.weir.api.types;

import java.lang.reflect.Type;
import java.util.List;

/** How a struct's fields are read from an instance and how an instance is made from them. */
interface StructAccess {
  /** Marks a field the serialized bytes did not have: the type's default applies. */
  Object MISSING = new Object();

  /** One field: its name and declared (generic) type. */
  record Member(String name, Type type) {}

  List<Member> members();

  /** What writes member {@code index} of an instance with {@code codec}, made once per type. */
  MemberWriter writer(int index, Codec codec);

  /** A new instance; a value of {@link #MISSING} gets the field's default (null, 0, false). */
  Object create(Object[] values);

  static Object defaultOf(Type type) {
    if (type == boolean.class) {
      return false;
    }
    if (type == char.class) {
      return (char) 0;
    }
    if (type == byte.class) {
      return (byte) 0;
    }
    if (type == short.class) {
      return (short) 0;
    }
    if (type == int.class) {
      return 0;
    }
    if (type == long.class) {
      return 0L;
    }
    if (type == float.class) {
      return 0f;
    }
    if (type == double.class) {
      return 0d;
    }
    return null;
  }
}
