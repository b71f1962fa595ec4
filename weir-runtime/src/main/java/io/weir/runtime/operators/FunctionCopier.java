package io.weir.runtime.operators;

import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.NotSerializableException;
import java.io.ObjectInputStream;
import java.io.ObjectOutputStream;
import java.io.ObjectStreamClass;

/**
 * Gives every subtask its own copy of a user function, by serializing it, as a job shipped to
 * another process would get one. Parallel subtasks must never share a function object: its fields
 * are the subtask's private state. This also finds a function that cannot be shipped on the first
 * local run rather than on the first cluster run.
 */
public final class FunctionCopier {
  private FunctionCopier() {}

  @SuppressWarnings("unchecked")
  public static <T> T copy(T function, String operatorName) {
    if (function == null) {
      return null;
    }
    ByteArrayOutputStream bytes = new ByteArrayOutputStream();
    try (ObjectOutputStream out = new ObjectOutputStream(bytes)) {
      out.writeObject(function);
    } catch (NotSerializableException e) {
      throw new IllegalArgumentException(
          "The function of operator '"
              + operatorName
              + "' is not serializable: it holds a "
              + e.getMessage()
              + " (make that field transient and create it in open())",
          e);
    } catch (IOException e) {
      throw new IllegalArgumentException(
          "The function of operator '" + operatorName + "' cannot be serialized: " + e, e);
    }
    try (ObjectInputStream in = new ContextObjectInputStream(bytes.toByteArray())) {
      return (T) in.readObject();
    } catch (IOException | ClassNotFoundException e) {
      throw new IllegalArgumentException(
          "The function of operator '" + operatorName + "' cannot be deserialized: " + e, e);
    }
  }

  /** Resolves classes through the context class loader, where a user's job classes live. */
  private static final class ContextObjectInputStream extends ObjectInputStream {
    ContextObjectInputStream(byte[] bytes) throws IOException {
      super((InputStream) new ByteArrayInputStream(bytes));
    }

    @Override
    protected Class<?> resolveClass(ObjectStreamClass descriptor)
        throws IOException, ClassNotFoundException {
      ClassLoader loader = Thread.currentThread().getContextClassLoader();
      if (loader != null) {
        try {
          return Class.forName(descriptor.getName(), false, loader);
        } catch (ClassNotFoundException e) {
          // fall through to the default resolution
        }
      }
      return super.resolveClass(descriptor);
    }
  }
}
