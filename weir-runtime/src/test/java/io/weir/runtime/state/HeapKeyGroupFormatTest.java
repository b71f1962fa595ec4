package io.weir.runtime.state;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.weir.api.state.StateSerializer;
import io.weir.api.state.ValueState;
import io.weir.api.state.ValueStateDescriptor;
import io.weir.api.types.TypeSerializer;
import java.io.Serializable;
import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeSet;
import org.junit.jupiter.api.Test;

/** Heap key groups in the compact format and in the Java-serialized format written before it. */
class HeapKeyGroupFormatTest {
  private static final int MAX_PARALLELISM = 16;
  private static final KeyGroupRange ALL = new KeyGroupRange(0, MAX_PARALLELISM - 1);
  private static final String TIMERS = "__timers.event-time";

  /** A key without a fast path: it goes through the key group's Java serialization stream. */
  record Route(String from, String to) implements Serializable {}

  /** Not serializable: only its type serializer can write it. */
  record Visit(String page, int seconds) {}

  private static HeapKeyedStateBackend backend(OperatorSubtaskState restored) {
    return new HeapKeyedStateBackend("format", ALL, MAX_PARALLELISM, restored);
  }

  private static OperatorSubtaskState state(Map<Integer, byte[]> keyGroups) {
    return new OperatorSubtaskState(Map.of(), Map.of(), keyGroups);
  }

  /** Keys of every kind the format writes: with a fast path, a long string, and a record. */
  private static List<Object> keysOfEveryKind() {
    List<Object> keys = new ArrayList<>();
    for (int i = 0; i < 200; i++) {
      keys.add((long) i);
      keys.add(i);
      keys.add("user-" + i);
      keys.add("x".repeat(HeapKeyGroupFormat.MAX_UTF_CHARS + 1) + i);
      keys.add(new Route("stop-" + i, "stop-" + (i + 1)));
    }
    return keys;
  }

  private static ValueState<Route> lastRoute(HeapKeyedStateBackend backend) {
    return backend.getState(new ValueStateDescriptor<>("last-route"));
  }

  private static ValueState<Visit> lastVisit(HeapKeyedStateBackend backend) {
    return backend.getState(
        new ValueStateDescriptor<>("last-visit", TypeSerializer.of(Visit.class)));
  }

  @Test
  void when_keysOfEveryKindAreSnapshotted_then_eachStateOfEachKeyRestores() {
    // given: an object value, a typed value and a timer for each key
    HeapKeyedStateBackend first = backend(OperatorSubtaskState.EMPTY);
    ValueState<Route> routes = lastRoute(first);
    ValueState<Visit> visits = lastVisit(first);
    KeyedTimerQueue timers = first.timerQueue(TIMERS);
    List<Object> keys = keysOfEveryKind();
    for (int i = 0; i < keys.size(); i++) {
      first.setCurrentKey(keys.get(i));
      routes.update(new Route("a" + i, "b" + i));
      visits.update(new Visit("/page/" + i, i));
      timers.register(i);
      timers.register(i + 10_000L);
    }

    // when
    Map<Integer, byte[]> snapshot = first.snapshot(1);
    HeapKeyedStateBackend second = backend(state(snapshot));

    // then: every key group is in the compact format, and every value and timer is back
    assertThat(snapshot.values()).allMatch(HeapKeyGroupFormat::isCompact);
    ValueState<Route> restoredRoutes = lastRoute(second);
    ValueState<Visit> restoredVisits = lastVisit(second);
    int restored = 0;
    for (int i = 0; i < keys.size(); i++) {
      second.setCurrentKey(keys.get(i));
      assertThat(restoredRoutes.value()).isEqualTo(new Route("a" + i, "b" + i));
      assertThat(restoredVisits.value()).isEqualTo(new Visit("/page/" + i, i));
      restored++;
    }
    assertThat(restored).isEqualTo(1_000);
    List<Long> fired = new ArrayList<>();
    KeyedTimerQueue restoredTimers = second.timerQueue(TIMERS);
    for (KeyedTimerQueue.Timer timer = restoredTimers.pollDue(Long.MAX_VALUE);
        timer != null;
        timer = restoredTimers.pollDue(Long.MAX_VALUE)) {
      assertThat(timer.key()).isEqualTo(keys.get((int) (timer.time() % 10_000)));
      fired.add(timer.time());
    }
    assertThat(fired).hasSize(2_000).isSorted().doesNotHaveDuplicates();
  }

  @Test
  void when_keyGroupsWereWrittenInTheEarlierFormat_then_theyRestoreAndAreRewrittenCompact() {
    // given: key groups as earlier versions wrote them, one Java-serialized map each
    Map<Integer, byte[]> earlier = new HashMap<>();
    for (long key = 1; key <= 3; key++) {
      int keyGroup = KeyGroups.keyGroupOf(key, MAX_PARALLELISM);
      HashMap<String, Object> content = EarlierFormat.contentOf(earlier.get(keyGroup));
      EarlierFormat.put(content, "last-route", key, new Route("from-" + key, "to-" + key));
      EarlierFormat.put(content, TIMERS, key, new TreeSet<>(List.of(100 * key, 100 * key + 50)));
      EarlierFormat.putTyped(content, "last-visit", key, new Visit("/v/" + key, (int) key));
      earlier.put(keyGroup, EarlierFormat.serialize(content));
    }

    // when: restored, then snapshotted again and restored from the new snapshot
    HeapKeyedStateBackend fromEarlier = backend(state(earlier));
    lastRoute(fromEarlier);
    lastVisit(fromEarlier);
    Map<Integer, byte[]> rewritten = fromEarlier.snapshot(2);
    HeapKeyedStateBackend fromRewritten = backend(state(rewritten));

    // then
    assertThat(rewritten.values()).hasSize(earlier.size()).allMatch(HeapKeyGroupFormat::isCompact);
    for (HeapKeyedStateBackend backend : List.of(fromEarlier, fromRewritten)) {
      ValueState<Route> routes = lastRoute(backend);
      ValueState<Visit> visits = lastVisit(backend);
      for (long key = 1; key <= 3; key++) {
        backend.setCurrentKey(key);
        assertThat(routes.value()).isEqualTo(new Route("from-" + key, "to-" + key));
        assertThat(visits.value()).isEqualTo(new Visit("/v/" + key, (int) key));
      }
      List<String> fired = new ArrayList<>();
      KeyedTimerQueue timers = backend.timerQueue(TIMERS);
      for (KeyedTimerQueue.Timer timer = timers.pollDue(Long.MAX_VALUE);
          timer != null;
          timer = timers.pollDue(Long.MAX_VALUE)) {
        fired.add(timer.key() + "@" + timer.time());
      }
      assertThat(fired).containsExactly("1@100", "1@150", "2@200", "2@250", "3@300", "3@350");
    }
  }

  @Test
  void when_theBytesAreOfAnotherBackend_then_theRestoreSaysWhichBackendWroteThem() {
    byte[] rocksDbHandle = ByteBuffer.allocate(16).putInt(0x57524442).array();

    assertThatThrownBy(() -> backend(state(Map.of(3, rocksDbHandle))))
        .isInstanceOf(IllegalStateException.class)
        .hasMessage(
            "The restored keyed state of key group 3 was not written by the heap state backend;"
                + " restore it with the backend that wrote it (--state-backend rocksdb)");
  }

  /** What earlier versions wrote for a key group, built as their snapshot built it. */
  private static final class EarlierFormat {
    private static final StateSerializer<HashMap<String, Object>> JAVA = StateSerializer.java();

    static HashMap<String, Object> contentOf(byte[] written) {
      return written == null ? new HashMap<>() : JAVA.deserialize(written);
    }

    @SuppressWarnings("unchecked")
    static void put(HashMap<String, Object> content, String state, Object key, Object value) {
      ((HashMap<Object, Object>) content.computeIfAbsent(state, s -> new HashMap<>()))
          .put(key, value);
    }

    static void putTyped(HashMap<String, Object> content, String state, Object key, Visit value) {
      TypeSerializer<Visit> type = TypeSerializer.of(Visit.class);
      TypedKeyGroup group =
          (TypedKeyGroup)
              content.computeIfAbsent(
                  state, s -> new TypedKeyGroup(List.of(type.schema()), new HashMap<>()));
      group.values().put(key, type.serialize(value));
    }

    static byte[] serialize(HashMap<String, Object> content) {
      return JAVA.serialize(content);
    }
  }
}
