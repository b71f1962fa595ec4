package io.weir.benchmarks;

import io.weir.api.state.ValueState;
import io.weir.api.state.ValueStateDescriptor;
import io.weir.examples.SeedRecords;
import io.weir.runtime.state.HeapKeyedStateBackend;
import io.weir.runtime.state.KeyGroupRange;
import io.weir.runtime.state.KeyGroups;
import io.weir.runtime.state.OperatorSubtaskState;
import java.io.IOException;
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
 * Keyed state on the heap as a keyed operator uses it per record: set the record's key (its key
 * group is computed), read and update a value; and the synchronous part of a checkpoint, the
 * serialization of every key group.
 */
@State(Scope.Thread)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
@Warmup(iterations = 3, time = 1)
@Measurement(iterations = 5, time = 1)
@Fork(1)
public class KeyedStateBenchmark {
  private static final int MAX_PARALLELISM = 128;
  private static final int WORDS = 1000;

  private HeapKeyedStateBackend backend;
  private ValueState<Long> counts;
  private String[] records;
  private int next;

  @Setup
  public void setUp() throws IOException {
    backend =
        new HeapKeyedStateBackend(
            "count",
            new KeyGroupRange(0, MAX_PARALLELISM - 1),
            MAX_PARALLELISM,
            OperatorSubtaskState.EMPTY);
    counts = backend.getState(new ValueStateDescriptor<>("count"));
    records = new String[WORDS];
    for (int i = 0; i < WORDS; i++) {
      records[i] = SeedRecords.generate(i);
      backend.setCurrentKey(SeedRecords.word(records[i]));
      counts.update(0L);
    }
  }

  /** What a keyed operator does before each record: extract the key, find its key group. */
  @Benchmark
  public Object setCurrentKey() {
    String record = records[next++ % WORDS];
    backend.setCurrentKey(SeedRecords.word(record));
    return backend.currentKey();
  }

  @Benchmark
  public Long readAndUpdateValue() throws IOException {
    String record = records[next++ % WORDS];
    backend.setCurrentKey(SeedRecords.word(record));
    long count = counts.value() + 1;
    counts.update(count);
    return count;
  }

  @Benchmark
  public int keyGroupOfWord() {
    return KeyGroups.keyGroupOf(SeedRecords.word(records[next++ % WORDS]), MAX_PARALLELISM);
  }

  /** The synchronous snapshot of 1,000 keys, as in the seed job's keyed operator. */
  @Benchmark
  @BenchmarkMode(Mode.AverageTime)
  @OutputTimeUnit(TimeUnit.MICROSECONDS)
  public Map<Integer, byte[]> snapshot() {
    return backend.snapshot(0);
  }
}
