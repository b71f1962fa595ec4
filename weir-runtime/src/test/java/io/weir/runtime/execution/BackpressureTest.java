package io.weir.runtime.execution;

import static org.assertj.core.api.Assertions.assertThat;

import io.weir.api.datastream.StreamEnvironment;
import io.weir.api.sink.SinkFunction;
import io.weir.api.source.GeneratorSource;
import java.lang.management.ManagementFactory;
import java.lang.management.MemoryMXBean;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.ScheduledThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

@Timeout(90)
class BackpressureTest {
  private static final long RECORDS = 5_000_000;

  /**
   * Five million boxed longs take well over 100 MB once queued; the bounded exchange should hold a
   * few thousand at a time.
   */
  private static final long HEAP_GROWTH_BOUND = 40L * 1024 * 1024;

  private static final AtomicLong DELIVERED = new AtomicLong();

  /** Counts records and sleeps 1 ms every 1,000: at most a million records a second. */
  static final class SlowCountingSink implements SinkFunction<Long> {
    private long seen;

    @Override
    public void invoke(Long value, Context context) throws InterruptedException {
      DELIVERED.incrementAndGet();
      if (++seen % 1_000 == 0) {
        Thread.sleep(1);
      }
    }
  }

  @Test
  void when_sinkIsSlowerThanSource_then_heapStaysBoundedAndEveryRecordArrives() throws Exception {
    // given: a fast source, a slow sink in another task
    MemoryMXBean memory = ManagementFactory.getMemoryMXBean();
    long baseline = heapUsedAfterGc(memory);
    AtomicLong peak = new AtomicLong(baseline);
    ScheduledExecutorService sampler = new ScheduledThreadPoolExecutor(1);
    sampler.scheduleAtFixedRate(
        () -> peak.accumulateAndGet(heapUsedAfterGc(memory), Math::max),
        100,
        250,
        TimeUnit.MILLISECONDS);
    StreamEnvironment env = StreamEnvironment.getExecutionEnvironment();
    env.addSource(new GeneratorSource<>(RECORDS, i -> i))
        .rebalance()
        .addSink(new SlowCountingSink());
    // when
    try {
      env.execute("backpressure");
    } finally {
      sampler.shutdownNow();
    }
    // then
    assertThat(DELIVERED.get()).isEqualTo(RECORDS);
    assertThat(peak.get() - baseline).isLessThan(HEAP_GROWTH_BOUND);
  }

  private static long heapUsedAfterGc(MemoryMXBean memory) {
    System.gc();
    return memory.getHeapMemoryUsage().getUsed();
  }
}
