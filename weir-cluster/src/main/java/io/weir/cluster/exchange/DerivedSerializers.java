package io.weir.cluster.exchange;

import io.weir.api.types.TypeSerializer;
import io.weir.api.types.UnsupportedTypeException;
import java.util.Optional;

/**
 * The default serializer of a record class that a stream did not declare, chosen once per class
 * when its first record is encoded or decoded: records and POJOs need neither Java serialization
 * nor {@code Serializable}. A class it cannot serialize (a field of an interface type, a class that
 * is neither a record nor a POJO) has none, and its records keep Java serialization. Keyed by the
 * class, so each job's classes have their own entry and go with their class loader.
 */
final class DerivedSerializers {
  private static final ClassValue<Optional<TypeSerializer<Object>>> BY_CLASS =
      new ClassValue<>() {
        @Override
        @SuppressWarnings("unchecked")
        protected Optional<TypeSerializer<Object>> computeValue(Class<?> type) {
          if ((!type.isRecord() && type.getName().startsWith("java."))
              || hasCustomJavaSerialization(type)) {
            return Optional.empty();
          }
          try {
            return Optional.of(TypeSerializer.of((Class<Object>) type));
          } catch (UnsupportedTypeException e) {
            return Optional.empty();
          }
        }
      };

  private DerivedSerializers() {}

  /** A class that says how Java serializes it expects exactly that: it keeps Java. */
  private static boolean hasCustomJavaSerialization(Class<?> type) {
    for (Class<?> level = type;
        level != null && level != Object.class;
        level = level.getSuperclass()) {
      for (java.lang.reflect.Method method : level.getDeclaredMethods()) {
        String name = method.getName();
        if (name.equals("writeObject")
            || name.equals("readObject")
            || name.equals("writeReplace")
            || name.equals("readResolve")) {
          return true;
        }
      }
    }
    return false;
  }

  static Optional<TypeSerializer<Object>> of(Class<?> type) {
    return BY_CLASS.get(type);
  }
}
