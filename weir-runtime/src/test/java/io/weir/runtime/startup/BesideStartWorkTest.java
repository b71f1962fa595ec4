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

  @Test
  void when_aSubtaskHasNotPassedItsStart_then_theStatusIsStartingEvenWithNoWorkAdded() {
    // given: two subtasks, one of them through its start, which added a fence
    BesideStartWork work = new BesideStartWork();
    BesideStartWork.SubtaskStart first = work.subtaskCreated();
    BesideStartWork.SubtaskStart second = work.subtaskCreated();
    CompletableFuture<Void> fence = new CompletableFuture<>();
    work.add(fence);
    first.passed();

    // then: the other may still add work
    assertThat(work.status()).isEqualTo(BesideStartStatus.STARTING);

    // when / then: the second passes too, while the fence runs, and then the fence ends
    second.passed();
    assertThat(work.status()).isEqualTo(BesideStartStatus.WORK_RUNNING);
    fence.complete(null);
    assertThat(work.status()).isEqualTo(BesideStartStatus.QUIET);
  }
}
