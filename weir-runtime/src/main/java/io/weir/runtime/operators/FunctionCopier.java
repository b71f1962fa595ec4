package io.weir.runtime.operators;

import io.weir.runtime.state.ContextObjectInputStream;
import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.NotSerializableException;
import java.io.ObjectInputStream;
import java.io.ObjectOutputStream;

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
    try (ObjectInputStream in =
        new ContextObjectInputStream(new ByteArrayInputStream(bytes.toByteArray()))) {
      return (T) in.readObject();
    } catch (IOException | ClassNotFoundException e) {
      throw new IllegalArgumentException(
          "The function of operator '" + operatorName + "' cannot be deserialized: " + e, e);
    }
  }
}
