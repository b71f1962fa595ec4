package io.weir.runtime.state;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.TreeMap;
import java.util.TreeSet;
import org.junit.jupiter.api.Test;

/** Heap timers through registration, deletion, firing, snapshot and restore. */
class HeapTimerQueueTest {
  private static final int MAX_PARALLELISM = 16;
  private static final KeyGroupRange ALL = new KeyGroupRange(0, MAX_PARALLELISM - 1);
  private static final String TIMERS = "__timers.event-time";

  private static HeapKeyedStateBackend backend(OperatorSubtaskState restored) {
    return new HeapKeyedStateBackend("timers", ALL, MAX_PARALLELISM, restored);
  }

  private static OperatorSubtaskState snapshotOf(HeapKeyedStateBackend backend) {
    return new OperatorSubtaskState(Map.of(), Map.of(), backend.snapshot(1));
  }

  /** Every due timer as "key@time", in the order the queue gives them. */
  private static List<String> pollAll(KeyedTimerQueue queue, long upTo) {
    List<String> fired = new ArrayList<>();
    KeyedTimerQueue.Timer timer;
    while ((timer = queue.pollDue(upTo)) != null) {
      fired.add(timer.key() + "@" + timer.time());
    }
    return fired;
  }

  @Test
  void when_manyTimersOfKeysAreRegisteredAndDeleted_then_theRestFireInTimeOrderOnce() {
    // given: keys with up to hundreds of timers each, in random order, some registered twice
    HeapKeyedStateBackend backend = backend(OperatorSubtaskState.EMPTY);
    KeyedTimerQueue queue = backend.timerQueue(TIMERS);
    Random random = new Random(17);
    TreeMap<Long, TreeSet<Long>> expected = new TreeMap<>();
    for (int i = 0; i < 5_000; i++) {
      long key = random.nextInt(20);
      long time = random.nextInt(1_000);
      backend.setCurrentKey(key);
      queue.register(time);
      expected.computeIfAbsent(time, t -> new TreeSet<>()).add(key);
    }
    // when: a third of them are deleted, some deleted that were never registered
    for (int i = 0; i < 2_000; i++) {
      long key = random.nextInt(20);
      long time = random.nextInt(1_000);
      backend.setCurrentKey(key);
      queue.delete(time);
      TreeSet<Long> keys = expected.get(time);
      if (keys != null) {
        keys.remove(key);
      }
    }

    // then: each remaining timer fires once, in time order, and none after
    List<String> fired = pollAll(queue, Long.MAX_VALUE);
    List<String> remaining = new ArrayList<>();
    expected.forEach((time, keys) -> keys.forEach(key -> remaining.add(key + "@" + time)));
    assertThat(fired).hasSameSizeAs(remaining).containsExactlyInAnyOrderElementsOf(remaining);
    assertThat(fired.stream().mapToLong(t -> Long.parseLong(t.split("@")[1]))).isSorted();
    assertThat(pollAll(queue, Long.MAX_VALUE)).isEmpty();
  }

  @Test
  void when_timersAreRestoredFromASnapshot_then_onlyThoseNotFiredFire() {
    // given: three keys' timers, one of which fired before the snapshot
    HeapKeyedStateBackend first = backend(OperatorSubtaskState.EMPTY);
    KeyedTimerQueue queue = first.timerQueue(TIMERS);
    for (long key = 1; key <= 3; key++) {
      first.setCurrentKey(key);
      queue.register(100 * key);
      queue.register(100 * key + 50);
    }
    assertThat(pollAll(queue, 100)).containsExactly("1@100");

    // when
    HeapKeyedStateBackend second = backend(snapshotOf(first));
    KeyedTimerQueue restored = second.timerQueue(TIMERS);

    // then
    assertThat(pollAll(restored, Long.MAX_VALUE))
        .containsExactly("1@150", "2@200", "2@250", "3@300", "3@350");
  }

  @Test
  void when_timersWereWrittenAsSetsOfTimes_then_theyRestoreAndFire() {
    // given: a key's timers kept as a set, as checkpoints of earlier versions hold them
    HeapKeyedStateBackend first = backend(OperatorSubtaskState.EMPTY);
    first.setCurrentKey(7L);
    first.table(TIMERS).put(new TreeSet<>(List.of(30L, 10L, 20L)));

    // when
    HeapKeyedStateBackend second = backend(snapshotOf(first));
    KeyedTimerQueue restored = second.timerQueue(TIMERS);
    second.setCurrentKey(7L);
    restored.delete(20L);
    restored.register(40L);

    // then
    assertThat(pollAll(restored, Long.MAX_VALUE)).containsExactly("7@10", "7@30", "7@40");
  }
}
