package io.weir.runtime.state;

import java.io.IOException;
import java.io.InputStream;
import java.io.ObjectInputStream;
import java.io.ObjectStreamClass;

/**
 * Java deserialization that resolves classes through the context class loader, where a user's job
 * classes live, and falls back to the default resolution.
 */
public final class ContextObjectInputStream extends ObjectInputStream {
  public ContextObjectInputStream(InputStream in) throws IOException {
    super(in);
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
