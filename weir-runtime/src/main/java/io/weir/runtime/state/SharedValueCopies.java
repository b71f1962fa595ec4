package io.weir.runtime.state;

import io.weir.api.state.StateSerializer;
import java.lang.reflect.RecordComponent;
import java.util.HashMap;
import java.util.Map;

/**
 * Copies of heap state values that a snapshot being written still holds, made before the task
 * thread may change them in place: through the state's typed codec when it has one (what the
 * snapshot writes), else by Java serialization, as the snapshot writes such values. Used on the
 * task thread only; the codecs' serializers make their buffers per call, so the snapshot thread may
 * use the same ones meanwhile.
 */
final class SharedValueCopies {
  private static final StateSerializer<Object> JAVA = StateSerializer.java();

  private final TypedStates typedStates;
  private final Map<TypedStateCodec, TypedStateCodec.Decoder> decoders = new HashMap<>();

  SharedValueCopies(TypedStates typedStates) {
    this.typedStates = typedStates;
  }

  /**
   * Whether instances of a class cannot change: the boxed primitives, strings, enums, and records
   * whose components are all of such types (their fields are final). Worked out once per class.
   */
  private static final ClassValue<Boolean> IMMUTABLE =
      new ClassValue<>() {
        @Override
        protected Boolean computeValue(Class<?> type) {
          return isImmutableType(type, 0);
        }
      };

  private static final int MAX_RECORD_DEPTH = 8;

  /** Values nobody can change in place, which a snapshot and the task thread may share. */
  static boolean isImmutable(Object value) {
    return IMMUTABLE.get(value.getClass());
  }

  private static boolean isImmutableType(Class<?> type, int depth) {
    if (type.isPrimitive()
        || type == String.class
        || type == Long.class
        || type == Integer.class
        || type == Double.class
        || type == Float.class
        || type == Short.class
        || type == Byte.class
        || type == Boolean.class
        || type == Character.class
        || type.isEnum()
        || (type.getSuperclass() != null && type.getSuperclass().isEnum())) {
      return true;
    }
    if (!type.isRecord() || depth >= MAX_RECORD_DEPTH) {
      return false;
    }
    for (RecordComponent component : type.getRecordComponents()) {
      if (!isImmutableType(component.getType(), depth + 1)) {
        return false;
      }
    }
    return true;
  }

  /** A copy of {@code value} of {@code table} that shares nothing changeable with it. */
  Object copy(HeapStateTable table, Object value) {
    if (value instanceof KeyTimerTimes times) {
      return times.copy();
    }
    TypedStateCodec codec = typedStates.codec(table.name());
    if (codec != null) {
      return decoders
          .computeIfAbsent(codec, c -> c.decoderOf(c.schemas()))
          .decode(codec.encode(value));
    }
    return JAVA.deserialize(JAVA.serialize(value));
  }
}
