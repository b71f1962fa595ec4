package io.weir.runtime.task;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.weir.api.datastream.JobClient;
import io.weir.api.datastream.StreamEnvironment;
import io.weir.api.functions.AbstractRichFunction;
import io.weir.api.sink.SinkFunction;
import io.weir.api.source.SourceFunction;
import java.time.Duration;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * A cancelled job closes every function, as {@link io.weir.api.functions.RichFunction} promises,
 * and on a thread whose interrupt (which woke it for the cancel) is set aside: the clients a
 * function closes (a Kafka producer's close, for one) would otherwise stop at their first wait.
 */
@Timeout(60)
class CancelClosesFunctionsTest {
  // Static: the job runs serialized copies of the functions. Per function: whether its thread was
  // interrupted when close was called.
  static final Map<String, Boolean> INTERRUPTED_AT_CLOSE = new ConcurrentHashMap<>();
  static final AtomicLong SUNK = new AtomicLong();

  @BeforeEach
  void reset() {
    INTERRUPTED_AT_CLOSE.clear();
    SUNK.set(0);
  }

  @Test
  void when_aRunningJobIsCancelled_then_itsSourceAndSinkAreClosedUninterrupted() throws Exception {
    // given: a source that emits until cancelled, and a sink busy with each record, so that the
    // cancel's interrupt finds the sink's thread working, not waiting
    StreamEnvironment env = StreamEnvironment.getExecutionEnvironment();
    env.addSource(new EndlessSource()).rebalance().addSink(new BusySink());
    JobClient client = env.executeAsync("cancel-closes");
    await().atMost(Duration.ofSeconds(30)).until(() -> SUNK.get() >= 200);

    // when
    client.cancel();

    // then
    await()
        .atMost(Duration.ofSeconds(30))
        .until(
            () ->
                INTERRUPTED_AT_CLOSE.containsKey("source")
                    && INTERRUPTED_AT_CLOSE.containsKey("sink"));
    assertThat(INTERRUPTED_AT_CLOSE).containsEntry("source", false).containsEntry("sink", false);
  }

  static final class EndlessSource extends AbstractRichFunction implements SourceFunction<Long> {
    private static final long serialVersionUID = 1L;
    private transient volatile boolean running;

    @Override
    public void run(SourceContext<Long> context) {
      running = true;
      long next = 0;
      while (running) {
        context.collect(next++);
      }
    }

    @Override
    public void cancel() {
      running = false;
    }

    @Override
    public void close() {
      INTERRUPTED_AT_CLOSE.put("source", Thread.currentThread().isInterrupted());
    }
  }

  static final class BusySink extends AbstractRichFunction implements SinkFunction<Long> {
    private static final long serialVersionUID = 1L;

    @Override
    public void invoke(Long value, Context context) {
      // Busy, not sleeping: a sleep would take the interrupt itself.
      long until = System.nanoTime() + 200_000;
      while (System.nanoTime() < until) {
        Thread.onSpinWait();
      }
      SUNK.incrementAndGet();
    }

    @Override
    public void close() {
      INTERRUPTED_AT_CLOSE.put("sink", Thread.currentThread().isInterrupted());
    }
  }
}
