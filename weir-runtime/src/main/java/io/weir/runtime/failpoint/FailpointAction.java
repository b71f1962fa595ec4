package io.weir.runtime.failpoint;

/** What happens when an armed failpoint is hit. */
public sealed interface FailpointAction {

  /**
   * Ends the process at once with {@code exitCode}, running no shutdown hooks and flushing nothing
   * but one line on standard error: as close to {@code kill -9} as a process can do to itself.
   */
  record Halt(int exitCode) implements FailpointAction {}

  /** Throws a {@link FailpointException} in the thread that hit the failpoint. */
  record Throw() implements FailpointAction {}

  /** Blocks the thread that hit the failpoint for {@code millis}, e.g. to widen a race window. */
  record Pause(long millis) implements FailpointAction {
    public Pause {
      if (millis < 0) {
        throw new IllegalArgumentException("pause must not be negative: " + millis);
      }
    }
  }
}
