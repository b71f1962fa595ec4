package io.weir.runtime.execution;

import static org.assertj.core.api.Assertions.assertThat;

import io.weir.api.datastream.JobResult;
import io.weir.api.datastream.RestartStrategy;
import io.weir.api.datastream.StreamEnvironment;
import io.weir.api.functions.MapFunction;
import io.weir.api.functions.RichMapFunction;
import io.weir.api.source.GeneratorSource;
import io.weir.api.state.ValueState;
import io.weir.api.state.ValueStateDescriptor;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * Keyed state stays exact across many failures: each restart rolls the counts back to the restored
 * checkpoint and replays what came after it, so no record is counted twice or lost. The counts go
 * to an at-least-once sink; the highest count seen per key is the key's final count.
 */
@Timeout(120)
class ExactlyOnceStateTest {
  private static final long RECORDS = 60_000;
  private static final int KEYS = 10;
  private static final int FAILURES = 30;

  /** Failures still to inject; static because every subtask works on its own copy of a function. */
  static final AtomicInteger FAILURE_BUDGET = new AtomicInteger();

  @Test
  void when_jobFailsManyTimes_then_finalCountsPerKeyEqualTheInputCounts() throws Exception {
    // given
    FAILURE_BUDGET.set(FAILURES);
    StreamEnvironment env = StreamEnvironment.getExecutionEnvironment().setParallelism(2);
    env.enableCheckpointing(Duration.ofMillis(20));
    env.setRestartStrategy(RestartStrategy.fixedDelay(1_000, Duration.ofMillis(5)));
    env.addSource(new GeneratorSource<>(RECORDS, i -> i, 20_000))
        .map(new FailingMap())
        .keyBy(i -> i % KEYS)
        .map(new CountPerKey())
        .addSink(new CollectSink<>("counts"));

    // when
    JobResult result = env.execute("exactly-once-state");

    // then
    List<long[]> counts = CollectSink.results("counts");
    Map<Long, Long> finalCounts =
        counts.stream()
            .collect(Collectors.toMap(c -> c[0], c -> c[1], Math::max, java.util.TreeMap::new));
    assertThat(FAILURE_BUDGET.get()).isZero();
    // two subtasks failing at once make one restart
    assertThat(result.restarts()).isBetween(20, FAILURES);
    assertThat(finalCounts).hasSize(KEYS);
    assertThat(finalCounts.values()).containsOnly(RECORDS / KEYS);
  }

  /** Throws at random records until the failure budget is used up. */
  static final class FailingMap implements MapFunction<Long, Long> {
    @Override
    public Long map(Long value) {
      if (ThreadLocalRandom.current().nextInt(1_000) == 0
          && FAILURE_BUDGET.getAndUpdate(left -> Math.max(0, left - 1)) > 0) {
        throw new IllegalStateException("injected failure at record " + value);
      }
      return value;
    }
  }

  /** Counts the records of each key in keyed state and emits {@code {key, count}}. */
  static final class CountPerKey extends RichMapFunction<Long, long[]> {
    private transient ValueState<Long> count;

    @Override
    public void open() {
      count = getRuntimeContext().getState(new ValueStateDescriptor<>("count"));
    }

    @Override
    public long[] map(Long value) throws Exception {
      Long current = count.value();
      long next = current == null ? 1 : current + 1;
      count.update(next);
      return new long[] {value % KEYS, next};
    }
  }
}
