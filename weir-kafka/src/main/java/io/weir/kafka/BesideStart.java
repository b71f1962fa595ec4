package io.weir.kafka;

import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.function.Supplier;

/**
 * Work a connector does beside its task's start rather than in it (a client's start, a check, a
 * topic), each on a daemon thread of its own named after it, and awaited where its result is first
 * needed.
 */
public final class BesideStart {
  private BesideStart() {}

  public static <R> CompletableFuture<R> run(String threadName, Supplier<R> work) {
    return CompletableFuture.supplyAsync(
        work,
        task -> {
          Thread thread = new Thread(task, threadName);
          thread.setDaemon(true);
          thread.start();
        });
  }

  /** The work's result, or its failure as thrown by the work. */
  public static <R> R await(CompletableFuture<R> started) {
    try {
      return started.join();
    } catch (CompletionException e) {
      throw e.getCause() instanceof RuntimeException cause ? cause : e;
    }
  }
}
