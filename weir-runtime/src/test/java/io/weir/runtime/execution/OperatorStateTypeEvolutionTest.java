package io.weir.runtime.execution;

import static org.assertj.core.api.Assertions.assertThat;

import io.weir.api.checkpoint.CheckpointedFunction;
import io.weir.api.checkpoint.FunctionInitializationContext;
import io.weir.api.checkpoint.FunctionSnapshotContext;
import io.weir.api.datastream.StreamEnvironment;
import io.weir.api.functions.MapFunction;
import io.weir.api.source.GeneratorSource;
import io.weir.api.state.ListState;
import io.weir.api.state.ListStateDescriptor;
import io.weir.api.state.OperatorStateStore;
import io.weir.api.types.TypeSerializer;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Consumer;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * Operator list and union list states of a record type across three versions of a job, restored
 * from a savepoint: v2 added a field, v3 changed a field's type. The record classes share the
 * states' names only.
 */
@Timeout(180)
class OperatorStateTypeEvolutionTest {
  private static final int RECORDS = 20_000;

  record SeenV1(long count) {}

  record SeenV2(long count, long sinceRestore) {}

  record SeenV3(String count) {}

  private static <T> ListState<T> seen(OperatorStateStore store, Class<T> type) {
    return store.getListState(new ListStateDescriptor<>("seen", TypeSerializer.of(type)));
  }

  private static <T> ListState<T> seenEverywhere(OperatorStateStore store, Class<T> type) {
    return store.getUnionListState(
        new ListStateDescriptor<>("seen-everywhere", TypeSerializer.of(type)));
  }

  /** v1: counts the records it saw, emits {@code count:0:0}. */
  static final class CountingV1 implements MapFunction<Long, String>, CheckpointedFunction {
    private transient ListState<SeenV1> seen;
    private transient ListState<SeenV1> seenEverywhere;
    private long count;

    @Override
    public void initializeState(FunctionInitializationContext context) {
      seen = seen(context.getOperatorStateStore(), SeenV1.class);
      seenEverywhere = seenEverywhere(context.getOperatorStateStore(), SeenV1.class);
    }

    @Override
    public void snapshotState(FunctionSnapshotContext context) {
      seen.update(List.of(new SeenV1(count)));
      seenEverywhere.update(List.of(new SeenV1(count)));
    }

    @Override
    public String map(Long value) {
      count++;
      return count + ":0:0";
    }
  }

  /**
   * v2: the same count, how many records it counted since it restored, and the count its union
   * state restored.
   */
  static final class CountingV2 implements MapFunction<Long, String>, CheckpointedFunction {
    private transient ListState<SeenV2> seen;
    private transient ListState<SeenV2> seenEverywhere;
    private transient SeenV2 last;
    private transient long restoredEverywhere;

    @Override
    public void initializeState(FunctionInitializationContext context) {
      seen = seen(context.getOperatorStateStore(), SeenV2.class);
      last = new SeenV2(0, 0);
      seenEverywhere = seenEverywhere(context.getOperatorStateStore(), SeenV2.class);
      seen.get().forEach(restored -> last = restored);
      seenEverywhere.get().forEach(restored -> restoredEverywhere = restored.count());
    }

    @Override
    public void snapshotState(FunctionSnapshotContext context) {
      seen.update(List.of(last));
      seenEverywhere.update(List.of(last));
    }

    @Override
    public String map(Long value) {
      last = new SeenV2(last.count() + 1, last.sinceRestore() + 1);
      return last.count() + ":" + last.sinceRestore() + ":" + restoredEverywhere;
    }
  }

  /** v3: the count became a string. */
  static final class CountingV3 implements MapFunction<Long, String>, CheckpointedFunction {
    @Override
    public void initializeState(FunctionInitializationContext context) {
      seen(context.getOperatorStateStore(), SeenV3.class);
    }

    @Override
    public void snapshotState(FunctionSnapshotContext context) {}

    @Override
    public String map(Long value) {
      return "0:0:0";
    }
  }

  private static Consumer<StreamEnvironment> job(
      MapFunction<Long, String> counting, String sink, long rate) {
    return env ->
        env.addSource(new GeneratorSource<>(RECORDS, i -> i, rate))
            .uid("numbers")
            // Its own task, as in the keyed variant: chained to the source, v1's collected output
            // ran past the savepoint's state, which is a matter of stop-with-savepoint, not types.
            .rebalance()
            .map(counting)
            .uid("count")
            .addSink(new CollectSink<>(sink))
            .uid("collect");
  }

  @Test
  void when_aFieldIsAddedAndThenChangesType_then_v2ContinuesExactlyAndV3IsRefusedInOneLine(
      @TempDir Path dir) throws Exception {
    // given: v1 counted part of the input and stopped with a savepoint
    SavepointVersions versions = new SavepointVersions("operator-state-types", 1);
    Path savepoint =
        versions.runThenStopWithSavepoint(
            dir, job(new CountingV1(), "operator-v1", 4_000), "operator-v1", 2_000);

    // when: v2, whose record gained a field, restores it and runs to the end of the input
    versions.runFrom(savepoint, job(new CountingV2(), "operator-v2", 0));

    // then: the counts run 1..RECORDS exactly once over both versions
    List<Long> counts = new ArrayList<>();
    long lastOfV1 = 0;
    for (String line : CollectSink.<String>results("operator-v1")) {
      counts.add(parse(line)[0]);
      lastOfV1 = Math.max(lastOfV1, parse(line)[0]);
    }
    List<String> afterRestore = CollectSink.results("operator-v2");
    assertThat(afterRestore).isNotEmpty().hasSizeLessThan(RECORDS);
    for (String line : afterRestore) {
      long[] parts = parse(line);
      counts.add(parts[0]);
      // and the added field started from its default, 0, at the restore
      assertThat(parts[0] - parts[1]).isEqualTo(lastOfV1);
      // and the union state restored the same count
      assertThat(parts[2]).isEqualTo(lastOfV1);
    }
    assertThat(counts).containsExactlyInAnyOrderElementsOf(SavepointVersions.oneTo(RECORDS));

    // when: v3, whose count field became a string, restores the same savepoint
    // then: it is refused in one line naming the state, the operator and the field
    versions
        .assertRefusedInOneLine(savepoint, job(new CountingV3(), "operator-v3", 0))
        .hasMessageContaining(
            "Cannot restore state 'seen' of operator 'count': field 'count' changed type"
                + " from long to String");
    assertThat(CollectSink.<String>results("operator-v3")).isEmpty();
  }

  private static long[] parse(String line) {
    String[] parts = line.split(":");
    return new long[] {
      Long.parseLong(parts[0]), Long.parseLong(parts[1]), Long.parseLong(parts[2])
    };
  }
}
