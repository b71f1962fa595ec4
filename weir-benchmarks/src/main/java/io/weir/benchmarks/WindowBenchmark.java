package io.weir.benchmarks;

import io.weir.api.checkpoint.CommitObserver;
import io.weir.api.datastream.JobConfig;
import io.weir.api.datastream.TaggedUnion;
import io.weir.api.datastream.WindowJoin;
import io.weir.api.functions.AggregateFunction;
import io.weir.api.functions.KeySelector;
import io.weir.api.functions.OutputTag;
import io.weir.api.graph.OperatorSpec;
import io.weir.api.state.StateBackend;
import io.weir.api.windowing.EventTimeSessionWindows;
import io.weir.api.windowing.TumblingEventTimeWindows;
import io.weir.runtime.operators.OperatorFactory;
import io.weir.runtime.operators.OperatorSetup;
import io.weir.runtime.operators.Output;
import io.weir.runtime.operators.ProcessingTimeService;
import io.weir.runtime.operators.StreamOperator;
import io.weir.runtime.state.KeyedStateBackends;
import io.weir.runtime.state.OperatorSubtaskState;
import java.time.Duration;
import java.util.Optional;
import java.util.OptionalLong;
import java.util.concurrent.TimeUnit;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.TearDown;
import org.openjdk.jmh.annotations.Warmup;

/**
 * Records per second through one window operator on the task thread, without exchange or sink: a
 * session window aggregating 1,000 keys' records (each key clicking every 10 ms of event time, with
 * a pause after every 20 clicks, so sessions open, merge and fire), and a window join of two sides
 * of 1,000 keys in tumbling windows of 100 ms. A watermark follows every 100 records. Run on the
 * heap and on RocksDB.
 */
@State(Scope.Thread)
@BenchmarkMode(Mode.Throughput)
@OutputTimeUnit(TimeUnit.SECONDS)
@Warmup(iterations = 3, time = 2)
@Measurement(iterations = 5, time = 2)
@Fork(1)
public class WindowBenchmark {
  private static final int KEYS = 1000;

  @Param({"heap", "rocksdb"})
  public String backend;

  private StreamOperator session;
  private StreamOperator join;
  private long next;
  private long emitted;

  @Setup(Level.Trial)
  public void setUp() throws Exception {
    KeySelector<Long, Long> byKey = index -> index % KEYS;
    session =
        open(
            "session",
            new OperatorSpec.Window(
                EventTimeSessionWindows.withGap(Duration.ofMillis(30)),
                null,
                new Count(),
                null,
                0,
                null),
            byKey);
    KeySelector<Long, Long> firstKey = index -> index % KEYS;
    KeySelector<Long, Long> secondKey = index -> index % KEYS;
    join =
        open(
            "join",
            new OperatorSpec.Window(
                TumblingEventTimeWindows.of(Duration.ofMillis(100)),
                null,
                null,
                new WindowJoin.PairsInWindow<Long, Long, Long, Long>((a, b) -> a + b),
                0,
                null),
            new WindowJoin.KeyOfEither<>(firstKey, secondKey));
  }

  @TearDown(Level.Trial)
  public void tearDown() throws Exception {
    session.close();
    join.close();
  }

  /** Event time of record {@code index}: its key clicks every 10 ms, pausing after 20 clicks. */
  private static long time(long index) {
    long step = index / KEYS;
    return step * 10 + (step / 20) * 100;
  }

  @Benchmark
  public long sessionWindow() throws Exception {
    long index = next++;
    session.processElement(index, time(index));
    if (index % 100 == 99) {
      session.processWatermark(time(index) - 1);
    }
    return emitted;
  }

  @Benchmark
  public long windowJoin() throws Exception {
    long index = next++;
    TaggedUnion<Long, Long> record =
        index % 2 == 0 ? TaggedUnion.ofFirst(index) : TaggedUnion.ofSecond(index);
    join.processElement(record, time(index));
    if (index % 100 == 99) {
      join.processWatermark(time(index) - 1);
    }
    return emitted;
  }

  private StreamOperator open(String name, OperatorSpec spec, KeySelector<?, ?> key)
      throws Exception {
    OperatorSetup setup =
        new OperatorSetup(
            name,
            name,
            "window-benchmark",
            0,
            1,
            128,
            0,
            key,
            OperatorSubtaskState.EMPTY,
            OptionalLong.empty(),
            new NoProcessingTime(),
            CommitObserver.NONE,
            KeyedStateBackends.forJob(
                StateBackend.named(backend), "window-benchmark", id -> Optional.empty()));
    StreamOperator operator =
        OperatorFactory.create(spec, setup, new CountingOutput(), new JobConfig());
    operator.initializeState();
    operator.open();
    return operator;
  }

  /** Counts a session's records. */
  static final class Count implements AggregateFunction<Long, Long, Long> {
    @Override
    public Long createAccumulator() {
      return 0L;
    }

    @Override
    public Long add(Long value, Long count) {
      return count + 1;
    }

    @Override
    public Long getResult(Long count) {
      return count;
    }

    @Override
    public Long merge(Long a, Long b) {
      return a + b;
    }
  }

  /** Event-time windows schedule no processing-time callbacks. */
  private static final class NoProcessingTime implements ProcessingTimeService {
    @Override
    public long currentTime() {
      return 0;
    }

    @Override
    public void schedule(long time, Callback callback) {}
  }

  private final class CountingOutput implements Output {
    @Override
    public void collect(Object record, long timestamp) {
      emitted++;
    }

    @Override
    public void collectSide(OutputTag<?> tag, Object record, long timestamp) {}

    @Override
    public void emitWatermark(long watermark) {}

    @Override
    public void emitWatermarkStatus(boolean idle) {}
  }
}
