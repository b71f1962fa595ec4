package io.weir.runtime.operators.window;

import static org.assertj.core.api.Assertions.assertThat;

import io.weir.api.functions.AggregateFunction;
import io.weir.api.functions.ReduceFunction;
import io.weir.api.state.StateSerializers;
import io.weir.api.types.EvolvingSerializer;
import io.weir.api.windowing.TimeWindow;
import io.weir.runtime.state.HeapKeyedStateBackend;
import io.weir.runtime.state.KeyGroupRange;
import io.weir.runtime.state.KeyedTable;
import io.weir.runtime.state.OperatorSubtaskState;
import java.io.Serializable;
import java.nio.charset.StandardCharsets;
import java.util.HashMap;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** The bytes a window operator keeps per key in a serializing backend, and their type. */
@SuppressWarnings("unchecked")
class WindowContentsSerializerTest {
  private static final TimeWindow FIRST = new TimeWindow(0, 10);
  private static final TimeWindow SECOND = new TimeWindow(10, 20);

  /** A POJO accumulator. */
  public static final class Range implements Serializable {
    public long lowest = Long.MAX_VALUE;
    public long highest = Long.MIN_VALUE;
  }

  /** Not a POJO (no public fields or accessors): Java serialization is its fallback. */
  static final class HiddenRange implements Serializable {
    long lowest = Long.MAX_VALUE;
    long highest = Long.MIN_VALUE;
  }

  record Reading(String sensor, long value) {}

  static final class RangeOf implements AggregateFunction<Long, Range, Long> {
    @Override
    public Range createAccumulator() {
      return new Range();
    }

    @Override
    public Range add(Long value, Range range) {
      range.lowest = Math.min(range.lowest, value);
      range.highest = Math.max(range.highest, value);
      return range;
    }

    @Override
    public Long getResult(Range range) {
      return range.highest - range.lowest;
    }

    @Override
    public Range merge(Range first, Range second) {
      return add(second.highest, add(second.lowest, first));
    }
  }

  static final class HiddenRangeOf implements AggregateFunction<Long, HiddenRange, Long> {
    @Override
    public HiddenRange createAccumulator() {
      return new HiddenRange();
    }

    @Override
    public HiddenRange add(Long value, HiddenRange range) {
      range.lowest = Math.min(range.lowest, value);
      range.highest = Math.max(range.highest, value);
      return range;
    }

    @Override
    public Long getResult(HiddenRange range) {
      return range.highest - range.lowest;
    }

    @Override
    public HiddenRange merge(HiddenRange first, HiddenRange second) {
      return add(second.highest, add(second.lowest, first));
    }
  }

  static final class LatestReading implements ReduceFunction<Reading> {
    @Override
    public Reading reduce(Reading first, Reading second) {
      return second;
    }
  }

  private static Range range(long lowest, long highest) {
    return new RangeOf().add(highest, new RangeOf().add(lowest, new Range()));
  }

  private static HashMap<TimeWindow, Object> twoWindows(Object first, Object second) {
    HashMap<TimeWindow, Object> windows = new HashMap<>();
    windows.put(FIRST, first);
    windows.put(SECOND, second);
    return windows;
  }

  @Test
  void
      when_anAggregateHasAPojoAccumulator_then_itsWindowsAreWrittenFieldByFieldWithoutClassNames() {
    // given
    WindowContentsSerializer serializer =
        WindowContentsSerializer.of(AccumulatedTypes.of(null, new RangeOf(), "ranges"));
    HashMap<TimeWindow, Object> windows = twoWindows(range(3, 9), range(-4, 40));

    // when
    byte[] bytes = serializer.serialize(windows);
    Map<Object, Object> back = (Map<Object, Object>) serializer.deserialize(bytes);

    // then
    assertThat(serializer).isInstanceOf(EvolvingSerializer.class);
    assertThat(back).containsOnlyKeys(FIRST, SECOND);
    assertThat(back.get(FIRST)).usingRecursiveComparison().isEqualTo(range(3, 9));
    assertThat(back.get(SECOND)).usingRecursiveComparison().isEqualTo(range(-4, 40));
    assertThat(new String(bytes, StandardCharsets.ISO_8859_1)).doesNotContain("Range", "java");
    // Each window: start, end, a length and the two fields, varints no longer than the longs.
    assertThat(bytes).hasSizeLessThanOrEqualTo(1 + 4 + 2 * (8 + 8 + 4 + 8 + 8));
  }

  @Test
  void when_heapStateSnapshotsPojoWindows_then_theyAreWrittenByTypeAndRestoreEqual() {
    // given: fifty keys' windows on the heap, with a POJO accumulator
    WindowContentsSerializer serializer =
        WindowContentsSerializer.of(AccumulatedTypes.of(null, new RangeOf(), "ranges"));
    KeyGroupRange all = new KeyGroupRange(0, 15);
    HeapKeyedStateBackend first =
        new HeapKeyedStateBackend("ranges", all, 16, OperatorSubtaskState.EMPTY);
    KeyedTable written = first.table("window-contents", serializer);
    for (long key = 0; key < 50; key++) {
      first.setCurrentKey(key);
      written.put(OpenWindows.of(twoWindows(range(key, 9), range(-key, 40))));
    }

    // when
    Map<Integer, byte[]> snapshot = first.snapshot(1);
    HeapKeyedStateBackend second =
        new HeapKeyedStateBackend(
            "ranges", all, 16, new OperatorSubtaskState(Map.of(), Map.of(), snapshot));
    KeyedTable restored = second.table("window-contents", serializer);

    // then: no accumulator class named in the bytes, and every key's windows back
    snapshot
        .values()
        .forEach(
            bytes ->
                assertThat(new String(bytes, StandardCharsets.ISO_8859_1))
                    .doesNotContain(Range.class.getName()));
    for (long key = 0; key < 50; key++) {
      second.setCurrentKey(key);
      Map<Object, Object> windows = (Map<Object, Object>) restored.get();
      assertThat(windows).isInstanceOf(OpenWindows.class).containsOnlyKeys(FIRST, SECOND);
      assertThat(windows.get(FIRST)).usingRecursiveComparison().isEqualTo(range(key, 9));
      assertThat(windows.get(SECOND)).usingRecursiveComparison().isEqualTo(range(-key, 40));
    }
  }

  @Test
  void when_heapWindowsWrittenAsObjectsAreRestored_then_theNextSnapshotWritesThemByType() {
    // given: a heap checkpoint of an earlier version, its windows a Java-serialized HashMap
    WindowContentsSerializer serializer =
        WindowContentsSerializer.of(AccumulatedTypes.of(null, new RangeOf(), "ranges"));
    KeyGroupRange all = new KeyGroupRange(0, 15);
    HeapKeyedStateBackend earlier =
        new HeapKeyedStateBackend("ranges", all, 16, OperatorSubtaskState.EMPTY);
    earlier.setCurrentKey(7L);
    earlier.table("window-contents").put(twoWindows(range(3, 9), range(-4, 40)));
    OperatorSubtaskState earlierCheckpoint =
        new OperatorSubtaskState(Map.of(), Map.of(), earlier.snapshot(1));

    // when: restored with the serializer, checkpointed, and restored again
    HeapKeyedStateBackend restored =
        new HeapKeyedStateBackend("ranges", all, 16, earlierCheckpoint);
    restored.table("window-contents", serializer);
    HeapKeyedStateBackend again =
        new HeapKeyedStateBackend(
            "ranges", all, 16, new OperatorSubtaskState(Map.of(), Map.of(), restored.snapshot(2)));
    KeyedTable table = again.table("window-contents", serializer);

    // then
    again.setCurrentKey(7L);
    Map<Object, Object> windows = (Map<Object, Object>) table.get();
    assertThat(windows).isInstanceOf(OpenWindows.class).containsOnlyKeys(FIRST, SECOND);
    assertThat(windows.get(SECOND)).usingRecursiveComparison().isEqualTo(range(-4, 40));
  }

  @Test
  void when_aReduceIsAClassOfRecords_then_itsRecordsAreWrittenByTheirType() {
    // given
    WindowContentsSerializer serializer =
        WindowContentsSerializer.of(AccumulatedTypes.of(new LatestReading(), null, "latest"));
    HashMap<TimeWindow, Object> windows =
        twoWindows(new Reading("north", 7), new Reading("south", -2));

    // when
    byte[] bytes = serializer.serialize(windows);

    // then
    assertThat(serializer.deserialize(bytes)).isEqualTo(windows);
    assertThat(new String(bytes, StandardCharsets.ISO_8859_1)).doesNotContain("Reading");
  }

  @Test
  void when_theAccumulatedTypeIsUnknownOrNotAPojo_then_javaSerializationKeepsItsWindows() {
    // given: a lambda reduce says no type, a class with hidden fields is not a POJO
    ReduceFunction<Long> sum = Long::sum;
    WindowContentsSerializer ofLambda =
        WindowContentsSerializer.of(AccumulatedTypes.of(sum, null, "sums"));
    WindowContentsSerializer ofHidden =
        WindowContentsSerializer.of(AccumulatedTypes.of(null, new HiddenRangeOf(), "ranges"));
    HiddenRange hidden = new HiddenRangeOf().add(5L, new HiddenRange());

    // when
    Map<Object, Object> sums =
        (Map<Object, Object>) ofLambda.deserialize(ofLambda.serialize(twoWindows(1L, 2L)));
    Map<Object, Object> ranges =
        (Map<Object, Object>) ofHidden.deserialize(ofHidden.serialize(twoWindows(hidden, hidden)));

    // then
    assertThat(ofLambda).isNotInstanceOf(EvolvingSerializer.class);
    assertThat(ofHidden).isNotInstanceOf(EvolvingSerializer.class);
    assertThat(sums).isEqualTo(twoWindows(1L, 2L));
    assertThat(ranges.get(SECOND)).usingRecursiveComparison().isEqualTo(hidden);
  }

  @Test
  void when_bytesOfTheEarlierFormatAreRead_then_theJavaSerializedMapComesBack() {
    // given: what the tagged default wrote for the whole map before windows had a format
    byte[] earlier = StateSerializers.tagged().serialize(twoWindows(range(1, 2), range(3, 4)));
    WindowContentsSerializer serializer =
        WindowContentsSerializer.of(AccumulatedTypes.of(null, new RangeOf(), "ranges"));

    // when
    Map<Object, Object> back = (Map<Object, Object>) serializer.deserialize(earlier);

    // then
    assertThat(back.get(FIRST)).usingRecursiveComparison().isEqualTo(range(1, 2));
    assertThat(back.get(SECOND)).usingRecursiveComparison().isEqualTo(range(3, 4));
  }
}
