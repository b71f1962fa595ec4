package io.weir.runtime.execution;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

import io.weir.api.datastream.JobExecutionException;
import io.weir.api.datastream.RestartStrategy;
import io.weir.api.datastream.StreamEnvironment;
import io.weir.api.datastream.SuppressRestartsException;
import io.weir.api.sink.DiscardingSink;
import io.weir.api.source.GeneratorSource;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

@Timeout(60)
class FailureTest {

  @Test
  void when_parallelKeyedMapThrows_then_jobFailsNamingItAndEveryTaskThreadStops() {
    // given: three subtasks per task, far more input than the failure lets through
    StreamEnvironment env = StreamEnvironment.getExecutionEnvironment().setParallelism(3);
    env.addSource(new GeneratorSource<>(50_000_000, i -> i))
        .name("Doomed Source")
        .keyBy(i -> i % 7)
        .map(
            i -> {
              if (i == 20_000) {
                throw new IllegalStateException("bad record " + i);
              }
              return i;
            })
        .name("Exploding Keyed Map")
        .addSink(new DiscardingSink<>())
        .name("Doomed Sink");
    long started = System.nanoTime();
    // when / then
    assertThatThrownBy(() -> env.execute("exploding"))
        .isInstanceOf(JobExecutionException.class)
        .hasMessageContaining("Exploding Keyed Map")
        .hasMessageContaining("bad record 20000");
    assertThat(Duration.ofNanos(System.nanoTime() - started)).isLessThan(Duration.ofSeconds(10));
    await()
        .atMost(Duration.ofSeconds(5))
        .untilAsserted(() -> assertThat(liveThreadsOfTheJob()).isEmpty());
  }

  @Test
  void when_failureSuppressesRestarts_then_jobFailsAtOnceDespiteUnlimitedRestarts() {
    // given: a restart strategy that would retry for ever
    StreamEnvironment env = StreamEnvironment.getExecutionEnvironment().setParallelism(2);
    env.setRestartStrategy(RestartStrategy.fixedDelay(Integer.MAX_VALUE, Duration.ofMillis(10)));
    env.addSource(new GeneratorSource<>(1_000_000, i -> i))
        .name("Doomed Source")
        .map(
            i -> {
              if (i == 5_000) {
                throw new SuppressRestartsException("record " + i + " can never be read", null);
              }
              return i;
            })
        .name("Unreadable Map")
        .addSink(new DiscardingSink<>())
        .name("Doomed Sink");

    // when / then
    assertThatThrownBy(() -> env.execute("unreadable"))
        .isInstanceOf(JobExecutionException.class)
        .hasMessageContaining("not restarted: restarting cannot cure this failure")
        .hasMessageContaining("record 5000 can never be read");
  }

  private static List<String> liveThreadsOfTheJob() {
    return Thread.getAllStackTraces().keySet().stream()
        .filter(Thread::isAlive)
        .map(Thread::getName)
        .filter(
            name ->
                name.contains("Doomed Source")
                    || name.contains("Exploding Keyed Map")
                    || name.startsWith("weir "))
        .toList();
  }
}
