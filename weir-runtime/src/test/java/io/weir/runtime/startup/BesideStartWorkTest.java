package io.weir.runtime.startup;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import org.junit.jupiter.api.Test;

class BesideStartWorkTest {
  @Test
  void when_workIsStillRunning_then_awaitAllReturnsOnlyOnceItEnded() throws Exception {
    // given: two works, one of them failing
    BesideStartWork work = new BesideStartWork();
    CompletableFuture<Void> fence = new CompletableFuture<>();
    CompletableFuture<Void> failing = new CompletableFuture<>();
    work.add(fence);
    work.add(failing);
    Thread attemptEnd =
        new Thread(
            () -> {
              try {
                work.awaitAll();
              } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
              }
            });

    // when
    attemptEnd.start();
    failing.completeExceptionally(new IllegalStateException("broker gone"));

    // then: the end waits for the work still running, however the other ended
    await().during(Duration.ofMillis(500)).atMost(Duration.ofSeconds(2)).until(attemptEnd::isAlive);
    fence.complete(null);
    attemptEnd.join(10_000);
    assertThat(attemptEnd.isAlive()).isFalse();
  }
}
