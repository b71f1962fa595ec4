package io.weir.api.datastream;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/** The launcher's context belongs to the thread that runs the job's main, not to the process. */
class StreamEnvironmentContextTest {
  @Test
  void when_twoRunnersLaunchJobsSideBySide_then_eachJobGetsItsOwnExecutorAndOverrides()
      throws Exception {
    // given: both contexts are installed before either job executes
    CountDownLatch bothInstalled = new CountDownLatch(2);

    // when
    CompletableFuture<StreamPlan> first = launch("first", 3, bothInstalled);
    CompletableFuture<StreamPlan> second = launch("second", 5, bothInstalled);

    // then
    assertThat(first.get(30, TimeUnit.SECONDS).jobName()).isEqualTo("first");
    assertThat(first.get().config().parallelism()).isEqualTo(3);
    assertThat(second.get(30, TimeUnit.SECONDS).jobName()).isEqualTo("second");
    assertThat(second.get().config().parallelism()).isEqualTo(5);
  }

  @Test
  void when_contextIsCleared_then_anotherThreadsContextStays() throws Exception {
    // given
    CompletableFuture<StreamPlan> captured = new CompletableFuture<>();
    StreamEnvironment.setContext(new StreamEnvironment.Context(capture(captured), null));
    Thread other = new Thread(StreamEnvironment::clearContext);

    // when
    other.start();
    other.join();
    StreamEnvironment environment = StreamEnvironment.getExecutionEnvironment();
    environment.fromElements(1, 2).print();
    try {
      environment.execute("kept");
    } finally {
      StreamEnvironment.clearContext();
    }

    // then
    assertThat(captured.get(30, TimeUnit.SECONDS).jobName()).isEqualTo("kept");
  }

  /** What a runner does: its context on its thread around the job's main. */
  private static CompletableFuture<StreamPlan> launch(
      String jobName, int parallelism, CountDownLatch bothInstalled) {
    CompletableFuture<StreamPlan> captured = new CompletableFuture<>();
    Thread runner =
        new Thread(
            () -> {
              StreamEnvironment.setContext(
                  new StreamEnvironment.Context(
                      capture(captured), config -> config.parallelism(parallelism)));
              try {
                bothInstalled.countDown();
                bothInstalled.await(30, TimeUnit.SECONDS);
                StreamEnvironment environment = StreamEnvironment.getExecutionEnvironment();
                environment.fromElements("a", "b").print();
                environment.execute(jobName);
              } catch (Exception e) {
                captured.completeExceptionally(e);
              } finally {
                StreamEnvironment.clearContext();
              }
            });
    runner.start();
    return captured;
  }

  private static JobExecutor capture(CompletableFuture<StreamPlan> captured) {
    return plan -> {
      captured.complete(plan);
      return null;
    };
  }
}
