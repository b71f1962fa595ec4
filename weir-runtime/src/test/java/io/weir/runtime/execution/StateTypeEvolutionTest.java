package io.weir.runtime.execution;

import static org.assertj.core.api.Assertions.assertThat;

import io.weir.api.datastream.StreamEnvironment;
import io.weir.api.functions.MapFunction;
import io.weir.api.functions.RichMapFunction;
import io.weir.api.source.GeneratorSource;
import io.weir.api.state.ValueState;
import io.weir.api.state.ValueStateDescriptor;
import io.weir.api.types.TypeSerializer;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Consumer;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * A keyed state of a record type across three versions of a job, restored from a savepoint: v2
 * added a field, v3 changed a field's type. The three record classes share the state's name only.
 */
@Timeout(180)
class StateTypeEvolutionTest {
  private static final int RECORDS = 30_000;
  private static final int KEYS = 13;

  record CountV1(long key, long count) {}

  record CountV2(long key, long count, long sinceRestore) {}

  record CountV3(long key, String count) {}

  /** v1: counts per key, emits {@code key:count}. */
  static final class CountingV1 extends RichMapFunction<Long, String> {
    private transient ValueState<CountV1> state;

    @Override
    public void open() {
      state =
          getRuntimeContext()
              .getState(new ValueStateDescriptor<>("count", TypeSerializer.of(CountV1.class)));
    }

    @Override
    public String map(Long value) {
      CountV1 last = state.value();
      CountV1 next = new CountV1(value % KEYS, last == null ? 1 : last.count() + 1);
      state.update(next);
      return next.key() + ":" + next.count() + ":0";
    }
  }

  /** v2: the same count, and how many records it counted since it restored. */
  static final class CountingV2 extends RichMapFunction<Long, String> {
    private transient ValueState<CountV2> state;

    @Override
    public void open() {
      state =
          getRuntimeContext()
              .getState(new ValueStateDescriptor<>("count", TypeSerializer.of(CountV2.class)));
    }

    @Override
    public String map(Long value) {
      CountV2 last = state.value();
      CountV2 next =
          last == null
              ? new CountV2(value % KEYS, 1, 1)
              : new CountV2(last.key(), last.count() + 1, last.sinceRestore() + 1);
      state.update(next);
      return next.key() + ":" + next.count() + ":" + next.sinceRestore();
    }
  }

  /** v3: the count became a string. */
  static final class CountingV3 extends RichMapFunction<Long, String> {
    private transient ValueState<CountV3> state;

    @Override
    public void open() {
      state =
          getRuntimeContext()
              .getState(new ValueStateDescriptor<>("count", TypeSerializer.of(CountV3.class)));
    }

    @Override
    public String map(Long value) {
      state.update(new CountV3(value % KEYS, "1"));
      return value + ":1:0";
    }
  }

  private static Consumer<StreamEnvironment> job(
      MapFunction<Long, String> counting, String sink, long rate) {
    return env ->
        env.addSource(new GeneratorSource<>(RECORDS, i -> i, rate))
            .uid("numbers")
            .keyBy(i -> i % KEYS)
            .map(counting)
            .uid("count")
            .addSink(new CollectSink<>(sink))
            .uid("collect");
  }

  @Test
  void when_aFieldIsAddedAndThenChangesType_then_v2ContinuesExactlyAndV3IsRefusedInOneLine(
      @TempDir Path dir) throws Exception {
    // given: v1 counted part of the input and stopped with a savepoint
    SavepointVersions versions = new SavepointVersions("keyed-state-types", 2);
    Path savepoint =
        versions.runThenStopWithSavepoint(dir, job(new CountingV1(), "v1", 5_000), "v1", 2_000);

    // when: v2, whose record gained a field, restores it and runs to the end of the input
    versions.runFrom(savepoint, job(new CountingV2(), "v2", 0));

    // then: every key's counts run 1..n exactly once over both versions, n from a plain loop
    Map<Long, Long> expected = new HashMap<>();
    for (long i = 0; i < RECORDS; i++) {
      expected.merge(i % KEYS, 1L, Long::sum);
    }
    Map<Long, List<Long>> counts = new HashMap<>();
    Map<Long, Long> lastOfV1 = new HashMap<>();
    for (String line : CollectSink.<String>results("v1")) {
      long[] parts = parse(line);
      counts.computeIfAbsent(parts[0], k -> new ArrayList<>()).add(parts[1]);
      lastOfV1.merge(parts[0], parts[1], Math::max);
    }
    List<String> afterRestore = CollectSink.results("v2");
    assertThat(afterRestore).hasSizeLessThan(RECORDS);
    for (String line : afterRestore) {
      long[] parts = parse(line);
      counts.computeIfAbsent(parts[0], k -> new ArrayList<>()).add(parts[1]);
      // and the added field started from its default, 0, at the restore
      assertThat(parts[1] - parts[2]).isEqualTo(lastOfV1.getOrDefault(parts[0], 0L));
    }
    assertThat(counts.keySet()).isEqualTo(expected.keySet());
    counts.forEach(
        (key, seen) ->
            assertThat(seen)
                .as("counts of key %d", key)
                .containsExactlyInAnyOrderElementsOf(SavepointVersions.oneTo(expected.get(key))));

    // when: v3, whose count field became a string, restores the same savepoint
    // then: it is refused in one line naming the state, the operator and the field
    versions
        .assertRefusedInOneLine(savepoint, job(new CountingV3(), "v3", 0))
        .hasMessageContaining(
            "Cannot restore state 'count' of operator 'count': field 'count' changed type"
                + " from long to String");
    assertThat(CollectSink.<String>results("v3")).isEmpty();
  }

  private static long[] parse(String line) {
    String[] parts = line.split(":");
    return new long[] {
      Long.parseLong(parts[0]), Long.parseLong(parts[1]), Long.parseLong(parts[2])
    };
  }
}
