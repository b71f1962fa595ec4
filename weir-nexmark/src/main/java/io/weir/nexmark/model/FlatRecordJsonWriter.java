package io.weir.nexmark.model;

import com.fasterxml.jackson.core.JsonEncoding;
import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonGenerator;
import com.fasterxml.jackson.core.io.SerializedString;
import com.fasterxml.jackson.core.util.ByteArrayBuilder;
import java.io.IOException;
import java.lang.invoke.MethodHandle;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.MethodType;
import java.lang.reflect.Method;
import java.lang.reflect.Modifier;
import java.lang.reflect.RecordComponent;

/**
 * Writes a flat record (every component a {@code long}, {@code int}, {@code boolean} or {@code
 * String}, nothing that changes how Jackson names or includes its members) through Jackson's
 * streaming generator, without the data binder: the generator the binder writes through, so the
 * bytes, escapes included, are the binder's.
 *
 * <p>The binder finds the type's serializer through a serializer provider made for every call and
 * reads each member through {@code Method.invoke}, boxing each number; the result rows of the
 * queries that pass bids on are all flat records.
 */
final class FlatRecordJsonWriter {
  /** Room for a usual row (a bid is about 150 bytes), so the builder rarely adds a block. */
  private static final int ROW_BYTES = 256;

  private static final ClassValue<FlatRecordJsonWriter> WRITERS =
      new ClassValue<>() {
        @Override
        protected FlatRecordJsonWriter computeValue(Class<?> type) {
          if (!flat(type)) {
            return null;
          }
          try {
            return new FlatRecordJsonWriter(type);
          } catch (IllegalStateException e) {
            // A record whose accessors this module may not call: the binder writes it, as before.
            return null;
          }
        }
      };

  private enum Kind {
    LONG,
    INT,
    BOOLEAN,
    STRING
  }

  // Per component: its kind, its getter typed (Object) -> its kind's type, and its name, quoted
  // once for every row.
  private final Kind[] kinds;
  private final MethodHandle[] getters;
  private final SerializedString[] names;

  private FlatRecordJsonWriter(Class<?> type) {
    RecordComponent[] components = type.getRecordComponents();
    this.kinds = new Kind[components.length];
    this.getters = new MethodHandle[components.length];
    this.names = new SerializedString[components.length];
    MethodHandles.Lookup lookup = lookupIn(type);
    for (int i = 0; i < components.length; i++) {
      RecordComponent component = components[i];
      kinds[i] = kindOf(component.getType());
      try {
        getters[i] =
            lookup
                .unreflect(component.getAccessor())
                .asType(MethodType.methodType(javaType(kinds[i]), Object.class));
      } catch (IllegalAccessException e) {
        throw new IllegalStateException("Cannot read " + component + " of " + type.getName(), e);
      }
      names[i] = new SerializedString(component.getName());
    }
  }

  /** The writer of {@code type}'s rows, or null when they are not flat records. */
  static FlatRecordJsonWriter of(Class<?> type) {
    return WRITERS.get(type);
  }

  /** {@code row} as JSON, in an array of its exact size. */
  byte[] write(JsonFactory factory, Object row) {
    try (ByteArrayBuilder out = new ByteArrayBuilder(ROW_BYTES)) {
      try (JsonGenerator generator = factory.createGenerator(out, JsonEncoding.UTF8)) {
        writeMembers(generator, row);
      }
      return out.toByteArray();
    } catch (IOException e) {
      throw new IllegalStateException("Cannot write " + row + " as JSON", e);
    }
  }

  private void writeMembers(JsonGenerator generator, Object row) throws IOException {
    generator.writeStartObject();
    try {
      for (int i = 0; i < kinds.length; i++) {
        generator.writeFieldName(names[i]);
        switch (kinds[i]) {
          case LONG -> generator.writeNumber((long) getters[i].invokeExact(row));
          case INT -> generator.writeNumber((int) getters[i].invokeExact(row));
          case BOOLEAN -> generator.writeBoolean((boolean) getters[i].invokeExact(row));
          case STRING -> generator.writeString((String) getters[i].invokeExact(row));
        }
      }
    } catch (IOException | RuntimeException | Error e) {
      throw e;
    } catch (Throwable e) {
      throw new IllegalStateException("Cannot read the members of " + row, e);
    }
    generator.writeEndObject();
  }

  /** Whether every character is printable ASCII that JSON writes as it is. */
  private static boolean plain(String value) {
    for (int i = 0; i < value.length(); i++) {
      char c = value.charAt(i);
      if (c < 0x20 || c > 0x7e || c == '"' || c == '\\') {
        return false;
      }
    }
    return true;
  }

  /**
   * A record whose JSON Jackson makes from its components alone, in their order: no annotations
   * (which could rename, order or leave out members), no getter-like method that would add a
   * member, components of the kinds this writer takes under names of plain ASCII.
   */
  private static boolean flat(Class<?> type) {
    // A record without components has no members, which Jackson refuses to write by default.
    if (!type.isRecord()
        || type.getAnnotations().length > 0
        || type.getRecordComponents().length == 0) {
      return false;
    }
    for (RecordComponent component : type.getRecordComponents()) {
      if (kindOf(component.getType()) == null
          || component.getAnnotations().length > 0
          || component.getAccessor().getAnnotations().length > 0
          || !plain(component.getName())) {
        return false;
      }
    }
    for (Method method : type.getMethods()) {
      if (!Modifier.isStatic(method.getModifiers())
          && method.getParameterCount() == 0
          && method.getDeclaringClass() != Object.class
          && (method.getName().startsWith("get") || method.getName().startsWith("is"))) {
        return false;
      }
    }
    return true;
  }

  private static Kind kindOf(Class<?> type) {
    if (type == long.class) {
      return Kind.LONG;
    } else if (type == int.class) {
      return Kind.INT;
    } else if (type == boolean.class) {
      return Kind.BOOLEAN;
    } else if (type == String.class) {
      return Kind.STRING;
    }
    return null;
  }

  private static Class<?> javaType(Kind kind) {
    return switch (kind) {
      case LONG -> long.class;
      case INT -> int.class;
      case BOOLEAN -> boolean.class;
      case STRING -> String.class;
    };
  }

  private static MethodHandles.Lookup lookupIn(Class<?> type) {
    try {
      return MethodHandles.privateLookupIn(type, MethodHandles.lookup());
    } catch (IllegalAccessException e) {
      throw new IllegalStateException("Cannot access the members of " + type.getName(), e);
    }
  }
}
