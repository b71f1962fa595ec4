package io.weir.api.state;

import io.weir.api.annotation.PublicEvolving;
import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.ObjectInputStream;
import java.io.ObjectOutputStream;
import java.io.Serializable;
import java.io.UncheckedIOException;

/**
 * Turns a value into bytes and back: a state value for a checkpoint, or a record that travels
 * between task managers ({@code DataStream.withSerializer}).
 */
@PublicEvolving
public interface StateSerializer<T> extends Serializable {
  byte[] serialize(T value);

  T deserialize(byte[] bytes);

  /** Java serialization; the value must be {@link Serializable}. */
  static <T> StateSerializer<T> java() {
    return new JavaSerializer<>();
  }

  /** Java serialization, the default for state values. */
  final class JavaSerializer<T> implements StateSerializer<T> {
    @Override
    public byte[] serialize(T value) {
      ByteArrayOutputStream bytes = new ByteArrayOutputStream();
      try (ObjectOutputStream out = new ObjectOutputStream(bytes)) {
        out.writeObject(value);
      } catch (IOException e) {
        throw new UncheckedIOException("Cannot serialize " + value.getClass().getName(), e);
      }
      return bytes.toByteArray();
    }

    @Override
    @SuppressWarnings("unchecked")
    public T deserialize(byte[] bytes) {
      try (ObjectInputStream in =
          new ObjectInputStream(new ByteArrayInputStream(bytes)) {
            @Override
            protected Class<?> resolveClass(java.io.ObjectStreamClass desc)
                throws IOException, ClassNotFoundException {
              // User classes may live in a class loader other than this library's.
              try {
                return Class.forName(
                    desc.getName(), false, Thread.currentThread().getContextClassLoader());
              } catch (ClassNotFoundException e) {
                return super.resolveClass(desc);
              }
            }
          }) {
        return (T) in.readObject();
      } catch (IOException | ClassNotFoundException e) {
        throw new IllegalStateException("Cannot deserialize state: " + e.getMessage(), e);
      }
    }
  }
}
