package io.weir.api.datastream;

import io.weir.api.annotation.Public;

/**
 * A failure that restarting cannot cure, such as a record that can never be read: the job fails at
 * once, whatever its restart strategy, instead of failing the same way on every restart. State and
 * offsets stay at the latest completed checkpoint, so nothing is lost; fix the cause and restart
 * the job. Found anywhere in a failure's cause chain.
 */
@Public
public class SuppressRestartsException extends RuntimeException {
  private static final long serialVersionUID = 1L;

  public SuppressRestartsException(String message, Throwable cause) {
    super(message, cause);
  }

  /** Whether {@code failure} or one of its causes says that restarting cannot help. */
  public static boolean isIn(Throwable failure) {
    for (Throwable t = failure; t != null; t = t.getCause()) {
      if (t instanceof SuppressRestartsException) {
        return true;
      }
      if (t.getCause() == t) {
        break;
      }
    }
    return false;
  }
}
