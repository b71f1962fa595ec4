package example.gadget;

import java.io.IOException;
import java.io.ObjectInputStream;
import java.io.Serializable;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * Stands in for a deserialization gadget: a class on the class path, outside Weir's packages, whose
 * {@code readObject} has a side effect. Counting its reads shows whether any bytes of a peer were
 * ever deserialized into it.
 */
public final class RecordingGadget implements Serializable {
  private static final long serialVersionUID = 1L;

  /** How often any instance was deserialized in this JVM. */
  public static final AtomicInteger READS = new AtomicInteger();

  private void readObject(ObjectInputStream in) throws IOException, ClassNotFoundException {
    in.defaultReadObject();
    READS.incrementAndGet();
  }
}
