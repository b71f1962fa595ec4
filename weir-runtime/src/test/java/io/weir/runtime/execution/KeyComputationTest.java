package io.weir.runtime.execution;

import static org.assertj.core.api.Assertions.assertThat;

import io.weir.api.datastream.StreamEnvironment;
import io.weir.api.functions.KeySelector;
import io.weir.api.functions.RichMapFunction;
import io.weir.api.state.ValueState;
import io.weir.api.state.ValueStateDescriptor;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicLong;
import java.util.stream.Collectors;
import java.util.stream.LongStream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * After {@code keyBy} the exchange computes each record's key to route it; the operator behind it
 * computes the key again only when its function can read keyed state.
 */
@Timeout(60)
class KeyComputationTest {
  private static final int RECORDS = 5_000;
  private static final int KEYS = 7;

  @Test
  void when_aPlainMapFollowsKeyBy_then_eachKeyIsComputedOnce() throws Exception {
    // given
    StreamEnvironment env = StreamEnvironment.getExecutionEnvironment().setParallelism(2);
    env.fromGenerator(RECORDS, i -> i)
        .keyBy(new CountingKey("plain"))
        .map(i -> i + 1)
        .addSink(new CollectSink<>("key-once"));
    // when
    env.execute("key-once");
    // then
    assertThat(CollectSink.<Long>results("key-once"))
        .containsExactlyInAnyOrderElementsOf(
            LongStream.range(0, RECORDS).map(i -> i + 1).boxed().toList());
    assertThat(CountingKey.calls("plain")).isEqualTo(RECORDS);
  }

  @Test
  void when_aStatefulMapFollowsKeyBy_then_itsStateIsPerKey() throws Exception {
    // given
    StreamEnvironment env = StreamEnvironment.getExecutionEnvironment().setParallelism(2);
    env.fromGenerator(RECORDS, i -> i)
        .keyBy(new CountingKey("stateful"))
        .map(new CountPerKey())
        .addSink(new CollectSink<>("key-state"));
    // when
    env.execute("key-state");
    // then: the last count of each key is the number of its records
    List<long[]> out = CollectSink.results("key-state");
    Map<Long, Long> lastCounts =
        out.stream().collect(Collectors.toMap(pair -> pair[0], pair -> pair[1], Math::max));
    Map<Long, Long> expected =
        LongStream.range(0, RECORDS)
            .boxed()
            .collect(Collectors.groupingBy(i -> i % KEYS, Collectors.counting()));
    assertThat(lastCounts).isEqualTo(expected);
    assertThat(CountingKey.calls("stateful")).isEqualTo(2L * RECORDS);
  }

  /** The key {@code record % 7}; counts its calls per name across the subtasks' copies. */
  private static final class CountingKey implements KeySelector<Long, Long> {
    private static final Map<String, AtomicLong> CALLS = new ConcurrentHashMap<>();
    private final String name;

    CountingKey(String name) {
      this.name = name;
      CALLS.put(name, new AtomicLong());
    }

    static long calls(String name) {
      return CALLS.get(name).get();
    }

    @Override
    public Long getKey(Long record) {
      CALLS.get(name).incrementAndGet();
      return record % KEYS;
    }
  }

  /** Emits {@code {key, records of the key so far}} from keyed state. */
  private static final class CountPerKey extends RichMapFunction<Long, long[]> {
    private transient ValueState<Long> count;

    @Override
    public void open() {
      count = getRuntimeContext().getState(new ValueStateDescriptor<>("count"));
    }

    @Override
    public long[] map(Long value) {
      Long current = count.value();
      long next = current == null ? 1 : current + 1;
      count.update(next);
      return new long[] {value % KEYS, next};
    }
  }
}
