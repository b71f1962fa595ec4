package io.weir.lab;

import java.time.Duration;
import java.util.Optional;
import java.util.function.Supplier;

/**
 * Waiting on a state that nothing notifies the lab of (a file a process writes, a broker's offsets,
 * a port that starts answering): look, and look again after a pause, until there is an answer or
 * the time is up.
 */
public final class Polling {
  private Polling() {}

  /** One look: the answer when there is one, empty to look again; it may fail the wait itself. */
  public interface Look<T> {
    Optional<T> look() throws Exception;
  }

  /**
   * Looks every {@code pause} until {@code look} answers, and returns the answer; after {@code
   * timeout} throws what {@code timedOut} makes. A failure thrown by a look ends the wait at once.
   */
  public static <T> T until(
      Duration timeout, Duration pause, Look<T> look, Supplier<LabFailure> timedOut)
      throws Exception {
    long deadline = System.nanoTime() + timeout.toNanos();
    while (true) {
      Optional<T> answer = look.look();
      if (answer.isPresent()) {
        return answer.get();
      }
      if (System.nanoTime() - deadline >= 0) {
        throw timedOut.get();
      }
      Thread.sleep(pause.toMillis());
    }
  }
}
