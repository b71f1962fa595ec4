package io.weir.benchmarks;

import io.weir.api.types.TypeSerializer;
import io.weir.api.windowing.TimeWindow;
import io.weir.runtime.operators.window.AccumulatedTypes;
import io.weir.runtime.operators.window.OpenWindows;
import io.weir.runtime.operators.window.WindowContentsSerializer;
import io.weir.runtime.state.HeapKeyedStateBackend;
import io.weir.runtime.state.KeyGroupRange;
import io.weir.runtime.state.KeyGroups;
import io.weir.runtime.state.KeyedTable;
import io.weir.runtime.state.KeyedTimerQueue;
import io.weir.runtime.state.OperatorSubtaskState;
import java.lang.management.ManagementFactory;
import java.lang.management.ThreadMXBean;
import java.util.Arrays;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.Warmup;

/**
 * The synchronous snapshot of a heap backend holding what Nexmark q17 keeps per auction: one open
 * day window with a record accumulator and one event-time timer for each of 300,000 keys in one
 * subtask's 64 key groups. {@link #main} prints the thread CPU and bytes of one snapshot, the
 * figures the performance notes compare.
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.MILLISECONDS)
@Warmup(iterations = 3, time = 2)
@Measurement(iterations = 5, time = 2)
@Fork(1)
public class HeapSnapshotBenchmark {
  private static final int KEYS = 300_000;
  private static final int MAX_PARALLELISM = 128;
  private static final long DAY = TimeUnit.DAYS.toMillis(1);

  /** A day's statistics of one auction, as q17's accumulator. */
  public record DayStatistics(long bids, long total, long lowest, long highest) {}

  private HeapKeyedStateBackend backend;

  @Setup
  public void setUp() {
    backend = filledBackend();
  }

  @Benchmark
  public Map<Integer, byte[]> snapshot() {
    return backend.snapshot(1);
  }

  @SuppressWarnings("unchecked")
  static HeapKeyedStateBackend filledBackend() {
    HeapKeyedStateBackend backend =
        new HeapKeyedStateBackend(
            "auction-day", new KeyGroupRange(0, 63), MAX_PARALLELISM, OperatorSubtaskState.EMPTY);
    TypeSerializer<Object> accumulator =
        (TypeSerializer<Object>) (TypeSerializer<?>) TypeSerializer.of(DayStatistics.class);
    KeyedTable contents =
        backend.table(
            "window-contents",
            WindowContentsSerializer.of(new AccumulatedTypes.Serializers(accumulator, null)));
    KeyedTimerQueue timers = backend.timerQueue("event-time-timers");
    long auction = 0;
    for (int keys = 0; keys < KEYS; auction++) {
      if (!backend.range().contains(KeyGroups.keyGroupOf(auction, MAX_PARALLELISM))) {
        continue;
      }
      backend.setCurrentKey(auction);
      OpenWindows windows = new OpenWindows();
      windows.put(new TimeWindow(0, DAY), new DayStatistics(3, 300 + auction, 90, 120));
      contents.put(windows);
      timers.register(DAY - 1);
      keys++;
    }
    return backend;
  }

  /** Thread CPU and bytes of one snapshot: the median of 8 rounds after 4. */
  public static void main(String[] args) {
    HeapKeyedStateBackend backend = filledBackend();
    ThreadMXBean threads = ManagementFactory.getThreadMXBean();
    long[] cpu = new long[8];
    long bytes = 0;
    for (int round = -4; round < cpu.length; round++) {
      long start = threads.getCurrentThreadCpuTime();
      Map<Integer, byte[]> snapshot = backend.snapshot(1);
      long spent = threads.getCurrentThreadCpuTime() - start;
      if (round >= 0) {
        cpu[round] = spent;
      }
      bytes = snapshot.values().stream().mapToLong(group -> group.length).sum();
    }
    Arrays.sort(cpu);
    System.out.printf(
        "%,d keys: %,d ms CPU and %,d bytes per snapshot%n",
        KEYS, TimeUnit.NANOSECONDS.toMillis(cpu[cpu.length / 2]), bytes);
  }
}
