package io.weir.api.types;

import io.weir.api.annotation.PublicEvolving;
import io.weir.api.state.StateSerializer;
import java.io.IOException;
import java.io.ObjectInputStream;
import java.util.Arrays;
import java.util.List;
import java.util.Set;

/**
 * The default serializer of a type, chosen once when it is built: primitives and their boxes,
 * strings, byte arrays, enums (by name), records (by their components, rebuilt through the
 * canonical constructor), POJOs (a public no-argument constructor and fields that are public or
 * have getters and setters), and lists, sets and maps of those, nested. Values are written field
 * after field in a compact binary form without class or field names; the names and types are in the
 * {@link #schema()}, which a checkpoint stores once per state so that a later version of the type
 * can read the bytes ({@link #readerOf}).
 *
 * <p>Java serialization is used only for the types named when the serializer is built. A type it
 * cannot serialize otherwise fails the build with {@link UnsupportedTypeException}, naming the type
 * and the field. One serializer may be used by several threads at once.
 */
@PublicEvolving
public final class TypeSerializer<T> implements EvolvingSerializer<T> {
  private static final long serialVersionUID = 1L;

  /** The most a serialize call starts with, so that one large value does not size every buffer. */
  private static final int MAX_INITIAL_SIZE = 4096;

  private final Class<T> type;
  private final List<Class<?>> javaSerialized;

  private transient Codec codec;
  private transient byte[] schema;

  /**
   * The largest value written so far, up to {@link #MAX_INITIAL_SIZE}: a serialize call starts with
   * a buffer that large, so that it rarely grows the buffer (a copy) while writing. Only a hint, so
   * threads may race on it.
   */
  private transient int initialSize;

  private TypeSerializer(Class<T> type, List<Class<?>> javaSerialized) {
    this.type = type;
    this.javaSerialized = javaSerialized;
    build();
  }

  /**
   * The serializer of {@code type}.
   *
   * @param javaSerialized types to write by Java serialization wherever they appear (at the top or
   *     in a field): the explicit fallback for types that are neither records nor POJOs
   * @throws UnsupportedTypeException naming the type and field that cannot be serialized
   */
  public static <T> TypeSerializer<T> of(Class<T> type, Class<?>... javaSerialized) {
    return of(type, Arrays.asList(javaSerialized));
  }

  /** As {@link #of(Class, Class[])}, with the Java-serialized types as a collection. */
  public static <T> TypeSerializer<T> of(
      Class<T> type, java.util.Collection<Class<?>> javaSerialized) {
    return new TypeSerializer<>(type, List.copyOf(javaSerialized));
  }

  public Class<T> type() {
    return type;
  }

  @Override
  public byte[] serialize(T value) {
    BinaryOutput out = new BinaryOutput(Math.max(initialSize, 64));
    codec.write(out, value);
    if (out.size() > initialSize && out.size() <= MAX_INITIAL_SIZE) {
      initialSize = out.size();
    }
    return out.toByteArray();
  }

  @Override
  @SuppressWarnings("unchecked")
  public T deserialize(byte[] bytes) {
    return (T) codec.read(new BinaryInput(bytes));
  }

  /** Field names and types, without class names; what {@link #readerOf} takes back. */
  @Override
  public byte[] schema() {
    return schema.clone();
  }

  /**
   * A serializer that reads bytes written by a serializer whose {@link #schema()} was {@code
   * writtenSchema} and returns values of this type: fields the type gained get their default (null,
   * 0, false, or what a POJO's constructor set), fields it lost are skipped. Its {@code serialize}
   * is this serializer's.
   *
   * @throws TypeChangedException when a field kept its name but changed its type
   */
  @Override
  public StateSerializer<T> readerOf(byte[] writtenSchema) {
    Schema written = Schema.read(new BinaryInput(writtenSchema));
    Codec reader = SchemaResolution.reader(written, codec, "");
    if (reader == codec) {
      return this;
    }
    return new StateSerializer<>() {
      @Override
      public byte[] serialize(T value) {
        return TypeSerializer.this.serialize(value);
      }

      @Override
      @SuppressWarnings("unchecked")
      public T deserialize(byte[] bytes) {
        return (T) reader.read(new BinaryInput(bytes));
      }
    };
  }

  private void build() {
    codec = Codecs.of(type, Set.copyOf(javaSerialized));
    BinaryOutput out = new BinaryOutput(64);
    Schema.write(codec.schema(), out);
    schema = out.toByteArray();
  }

  private void readObject(ObjectInputStream in) throws IOException, ClassNotFoundException {
    in.defaultReadObject();
    build();
  }

  @Override
  public String toString() {
    return "TypeSerializer(" + type.getName() + ")";
  }
}
