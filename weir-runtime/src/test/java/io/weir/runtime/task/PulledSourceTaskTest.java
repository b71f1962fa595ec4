package io.weir.runtime.task;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.weir.api.datastream.JobClient;
import io.weir.api.datastream.JobResult;
import io.weir.api.datastream.RestartStrategy;
import io.weir.api.datastream.StreamEnvironment;
import io.weir.api.functions.MapFunction;
import io.weir.api.functions.RichMapFunction;
import io.weir.api.sink.DiscardingSink;
import io.weir.api.sink.SinkFunction;
import io.weir.api.source.InputStatus;
import io.weir.api.source.ReaderOutput;
import io.weir.api.source.ReaderSource;
import io.weir.api.source.SourceReader;
import io.weir.api.source.SourceReaderContext;
import io.weir.api.source.SourceSplit;
import io.weir.api.state.ValueState;
import io.weir.api.state.ValueStateDescriptor;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * A source task polls a {@link SourceReader} on its own thread: barriers get in while the reader
 * has nothing, without the reader's future and without spinning, and the reader's splits are
 * checkpointed at the barrier and restored, so that every id reaches the job exactly once.
 */
@Timeout(120)
class PulledSourceTaskTest {
  private static final int SPLITS = 6;
  private static final long PER_SPLIT = 5_000;
  private static final int FAILURES = 10;

  // Static: the job runs serialized copies of the functions.
  static final AtomicInteger FAILURE_BUDGET = new AtomicInteger();
  static final Map<Long, Long> COUNT_PER_ID = new ConcurrentHashMap<>();
  static final AtomicLong IDLE_POLLS = new AtomicLong();
  static final AtomicLong COMPLETED_CHECKPOINTS = new AtomicLong();

  @BeforeEach
  void reset() {
    FAILURE_BUDGET.set(0);
    COUNT_PER_ID.clear();
    IDLE_POLLS.set(0);
    COMPLETED_CHECKPOINTS.set(0);
  }

  @Test
  void when_theJobFailsWhileReadersRead_then_everyIdIsCountedExactlyOnce() throws Exception {
    // given: two readers of six sequences, a map that fails now and then, and a count per id in
    // keyed state (rolled back with the readers' positions on each restore)
    FAILURE_BUDGET.set(FAILURES);
    StreamEnvironment env = StreamEnvironment.getExecutionEnvironment().setParallelism(2);
    env.enableCheckpointing(Duration.ofMillis(20));
    env.setRestartStrategy(RestartStrategy.fixedDelay(1_000, Duration.ofMillis(5)));
    env.addSource(new SequenceReaderSource(SPLITS, PER_SPLIT))
        .map(new FailingMap())
        .keyBy(id -> id)
        .map(new CountPerId())
        .addSink(new MaxCountSink());

    // when
    JobResult result = env.execute("pulled-source-exactly-once");

    // then: every id, and each counted once in the state that survived
    assertThat(FAILURE_BUDGET.get()).isZero();
    assertThat(result.restarts()).isPositive();
    assertThat(COUNT_PER_ID).hasSize((int) (SPLITS * PER_SPLIT));
    assertThat(COUNT_PER_ID.values()).containsOnly(1L);
  }

  @Test
  void when_theReaderHasNothing_then_checkpointsCompleteAndTheTaskDoesNotSpin() throws Exception {
    // given: a reader whose input never comes
    StreamEnvironment env = StreamEnvironment.getExecutionEnvironment();
    env.enableCheckpointing(Duration.ofMillis(50));
    env.addSource(new NeverAvailableSource()).addSink(new DiscardingSink<>());

    // when
    JobClient client = env.executeAsync("pulled-source-idle");

    // then: barriers went out between polls that found nothing, and the task polled about once a
    // wake-up (mail, a flush), not in a loop
    try {
      await().atMost(Duration.ofSeconds(30)).until(() -> COMPLETED_CHECKPOINTS.get() >= 10);
      long polls = IDLE_POLLS.get();
      long checkpoints = COMPLETED_CHECKPOINTS.get();
      assertThat(polls).isLessThan(checkpoints * 100);
    } finally {
      client.cancel();
    }
  }

  /** Throws at random ids until the failure budget is used up. */
  static final class FailingMap implements MapFunction<Long, Long> {
    @Override
    public Long map(Long value) {
      if (ThreadLocalRandom.current().nextInt(2_000) == 0
          && FAILURE_BUDGET.getAndUpdate(left -> Math.max(0, left - 1)) > 0) {
        throw new IllegalStateException("injected failure at id " + value);
      }
      return value;
    }
  }

  /** Counts each id in keyed state and emits {@code {id, count}}. */
  static final class CountPerId extends RichMapFunction<Long, long[]> {
    private transient ValueState<Long> count;

    @Override
    public void open() {
      count = getRuntimeContext().getState(new ValueStateDescriptor<>("count"));
    }

    @Override
    public long[] map(Long id) throws Exception {
      Long current = count.value();
      long next = current == null ? 1 : current + 1;
      count.update(next);
      return new long[] {id, next};
    }
  }

  /** The highest count seen per id: its count in the state that survived every restore. */
  static final class MaxCountSink implements SinkFunction<long[]> {
    @Override
    public void invoke(long[] value, Context context) {
      COUNT_PER_ID.merge(value[0], value[1], Math::max);
    }
  }

  /** A reader with no input at all; counts its polls and the checkpoints it was told about. */
  static final class NeverAvailableSource implements ReaderSource<Long> {
    @Override
    public SourceReader<Long, SourceSplit> createReader(SourceReaderContext context) {
      CompletableFuture<Void> never = new CompletableFuture<>();
      return new SourceReader<>() {
        @Override
        public InputStatus pollNext(ReaderOutput<Long> output) {
          IDLE_POLLS.incrementAndGet();
          return InputStatus.NOTHING_AVAILABLE;
        }

        @Override
        public CompletableFuture<Void> isAvailable() {
          return never;
        }

        @Override
        public List<SourceSplit> snapshotState(long checkpointId) {
          return List.of();
        }

        @Override
        public void notifyCheckpointComplete(long checkpointId) {
          COMPLETED_CHECKPOINTS.incrementAndGet();
        }

        @Override
        public void close() {}
      };
    }
  }
}
