package io.weir.rocksdb;

import static org.assertj.core.api.Assertions.assertThat;

import io.weir.runtime.state.KeyGroups;
import io.weir.runtime.state.KeyedStateBackend;
import io.weir.runtime.state.KeyedTimerQueue;
import io.weir.runtime.state.KeyedTimerQueue.Timer;
import io.weir.runtime.state.OperatorSubtaskState;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;

/** The order, uniqueness and key-group cut of timers kept in RocksDB. */
class RocksDbTimerQueueTest {
  private static final int MAX_PARALLELISM = TestBackends.MAX_PARALLELISM;
  private static final String QUEUE = "__timers.event-time";

  /** Twice as many timers as one subtask of all key groups caches: most are in RocksDB only. */
  private static final int MORE_THAN_CACHED =
      2 * RocksDbTimerQueue.cachedPerKeyGroup(MAX_PARALLELISM) * MAX_PARALLELISM;

  @TempDir Path jobDirectory;
  @RegisterExtension final LocalRoot localRoot = new LocalRoot();

  @Test
  void when_timesAreEncoded_then_byteOrderIsTimeOrder() {
    // given: times of both signs and the extremes
    SplittableRandom random = new SplittableRandom(7);
    List<Long> times = new ArrayList<>(List.of(Long.MIN_VALUE, -1L, 0L, 1L, Long.MAX_VALUE));
    for (int i = 0; i < 1_000; i++) {
      times.add(random.nextLong());
    }
    byte[] key = {42};
    for (long a : times) {
      for (long b : times.subList(0, 50)) {
        // when
        byte[] first = TimerKeys.timerKey(3, a, key);
        byte[] second = TimerKeys.timerKey(3, b, key);
        // then
        assertThat(Integer.signum(Arrays.compareUnsigned(first, second)))
            .as("%d vs %d", a, b)
            .isEqualTo(Integer.signum(Long.compare(a, b)));
        assertThat(TimerKeys.timeOf(first)).isEqualTo(a);
      }
    }
  }

  @Test
  void when_manyMoreTimersThanTheCacheAreRegistered_then_theyComeOutInTimeOrderOnce()
      throws Exception {
    try (KeyedStateBackend backend = backend(0, 1, OperatorSubtaskState.EMPTY)) {
      // given: timers in random order over 3,000 keys, each registered twice
      KeyedTimerQueue queue = backend.timerQueue(QUEUE);
      List<Timer> registered = randomTimers(MORE_THAN_CACHED, 3_000, 11);
      for (Timer timer : registered) {
        backend.setCurrentKey(timer.key());
        queue.register(timer.time());
        queue.register(timer.time());
      }

      // when
      List<Timer> fired = pollAll(queue, Long.MAX_VALUE);

      // then
      assertFiredInOrder(fired);
      assertThat(sorted(fired)).isEqualTo(sorted(registered));
      assertThat(queue.nextTime()).isEqualTo(Long.MAX_VALUE);
    }
  }

  @Test
  void when_timersAreDeleted_then_onlyTheOthersFire() throws Exception {
    try (KeyedStateBackend backend = backend(0, 1, OperatorSubtaskState.EMPTY)) {
      // given: timers, every third deleted (cached early ones and stored late ones alike)
      KeyedTimerQueue queue = backend.timerQueue(QUEUE);
      List<Timer> registered = randomTimers(MORE_THAN_CACHED, 500, 13);
      List<Timer> kept = new ArrayList<>();
      for (Timer timer : registered) {
        backend.setCurrentKey(timer.key());
        queue.register(timer.time());
      }
      for (int i = 0; i < registered.size(); i++) {
        Timer timer = registered.get(i);
        if (i % 3 == 0) {
          backend.setCurrentKey(timer.key());
          queue.delete(timer.time());
        } else {
          kept.add(timer);
        }
      }

      // when
      List<Timer> fired = pollAll(queue, Long.MAX_VALUE);

      // then
      assertFiredInOrder(fired);
      assertThat(sorted(fired)).isEqualTo(sorted(kept));
    }
  }

  @Test
  void when_pollingUpToATime_then_onlyDueTimersComeOutWithTheirKeyCurrent() throws Exception {
    try (KeyedStateBackend backend = backend(0, 1, OperatorSubtaskState.EMPTY)) {
      // given
      KeyedTimerQueue queue = backend.timerQueue(QUEUE);
      for (long key = 0; key < 100; key++) {
        backend.setCurrentKey(key);
        queue.register(key * 10);
      }

      // when
      List<Timer> fired = new ArrayList<>();
      Timer timer;
      while ((timer = queue.pollDue(495)) != null) {
        assertThat(backend.currentKey()).isEqualTo(timer.key());
        fired.add(timer);
        if (timer.time() == 0) {
          // a timer registered while firing, and due, fires in the same round
          queue.register(5);
        }
      }

      // then
      assertThat(fired).hasSize(51).extracting(Timer::time).startsWith(0L, 5L, 10L).endsWith(490L);
      assertThat(queue.nextTime()).isEqualTo(500);
    }
  }

  @Test
  void when_checkpointedAndRescaledTwoToThreeToOne_then_everyTimerFiresOnce() throws Exception {
    // given: two subtasks with timers between them, a quarter fired before the checkpoint
    List<Timer> registered = randomTimers(MORE_THAN_CACHED, 4_000, 17);
    long firedBefore = percentileTime(registered, 25);
    List<Timer> fired = new ArrayList<>();
    Map<Integer, byte[]> first = new HashMap<>();
    for (int subtask = 0; subtask < 2; subtask++) {
      try (KeyedStateBackend backend = backend(subtask, 2, OperatorSubtaskState.EMPTY)) {
        KeyedTimerQueue queue = backend.timerQueue(QUEUE);
        for (Timer timer : registered) {
          if (KeyGroups.subtaskOfKey(timer.key(), MAX_PARALLELISM, 2) == subtask) {
            backend.setCurrentKey(timer.key());
            queue.register(timer.time());
          }
        }
        fired.addAll(pollAll(queue, firedBefore));
        first.putAll(TestBackends.checkpoint(backend, 1));
      }
    }

    // when: three subtasks restore it and fire half of the rest, one subtask the remainder
    long firedMiddle = percentileTime(registered, 60);
    Map<Integer, byte[]> second = new HashMap<>();
    for (int subtask = 0; subtask < 3; subtask++) {
      try (KeyedStateBackend backend = backend(subtask, 3, backends().restored(first, 1))) {
        List<Timer> own = pollAll(backend.timerQueue(QUEUE), firedMiddle);
        for (Timer timer : own) {
          assertThat(KeyGroups.subtaskOfKey(timer.key(), MAX_PARALLELISM, 3)).isEqualTo(subtask);
        }
        fired.addAll(own);
        second.putAll(TestBackends.checkpoint(backend, 2));
      }
    }
    try (KeyedStateBackend one = backend(0, 1, backends().restored(second, 2))) {
      fired.addAll(pollAll(one.timerQueue(QUEUE), Long.MAX_VALUE));
    }

    // then
    assertThat(sorted(fired)).isEqualTo(sorted(registered));
  }

  @Test
  void when_timersOnlyCachedAreCheckpointed_then_theRestoreHoldsAndFiresEachOnce()
      throws Exception {
    // given: timers few enough to stay cached; a third fired before the checkpoint, some
    // registered after it, and more fired after it, none of them written to RocksDB on their own
    List<Timer> registered = randomTimers(600, 300, 19);
    long firedBefore = percentileTime(registered, 33);
    List<Timer> fired = new ArrayList<>();
    Map<Integer, byte[]> checkpoint;
    int waitingAtCheckpoint;
    try (KeyedStateBackend backend = backend(0, 1, OperatorSubtaskState.EMPTY)) {
      KeyedTimerQueue queue = backend.timerQueue(QUEUE);
      for (Timer timer : registered) {
        backend.setCurrentKey(timer.key());
        queue.register(timer.time());
      }
      fired.addAll(pollAll(queue, firedBefore));
      waitingAtCheckpoint = registered.size() - fired.size();
      checkpoint = TestBackends.checkpoint(backend, 1);
      backend.setCurrentKey(-1L);
      queue.register(Long.MIN_VALUE);
      assertThat(pollAll(queue, percentileTime(registered, 66))).isNotEmpty();
    }

    // when: the subtask is restored from the checkpoint, as after a crash
    try (KeyedStateBackend restored = backend(0, 1, backends().restored(checkpoint, 1))) {
      long[] stored = {0};
      ((RocksDbKeyedStateBackend) restored).countEntries("timer-queue:" + QUEUE, () -> stored[0]++);
      fired.addAll(pollAll(restored.timerQueue(QUEUE), Long.MAX_VALUE));

      // then: RocksDB held exactly the timers waiting at the checkpoint, and each fired once
      assertThat(stored[0]).isEqualTo(waitingAtCheckpoint);
    }
    assertThat(sorted(fired)).isEqualTo(sorted(registered));
  }

  private static List<Timer> randomTimers(int count, int keys, long seed) {
    SplittableRandom random = new SplittableRandom(seed);
    Map<Timer, Boolean> unique = new java.util.LinkedHashMap<>();
    while (unique.size() < count) {
      unique.put(
          new Timer(random.nextLong(-1_000_000, 1_000_000), (long) random.nextInt(keys)), true);
    }
    return List.copyOf(unique.keySet());
  }

  /** In time and key order; AssertJ's any-order comparison is quadratic in the list's size. */
  private static List<Timer> sorted(List<Timer> timers) {
    return timers.stream()
        .sorted(
            java.util.Comparator.comparingLong(Timer::time)
                .thenComparingLong(timer -> (Long) timer.key()))
        .toList();
  }

  private static long percentileTime(List<Timer> timers, int percent) {
    long[] times = timers.stream().mapToLong(Timer::time).sorted().toArray();
    return times[times.length * percent / 100];
  }

  private static List<Timer> pollAll(KeyedTimerQueue queue, long upTo) {
    List<Timer> fired = new ArrayList<>();
    Timer timer;
    while ((timer = queue.pollDue(upTo)) != null) {
      fired.add(timer);
    }
    return fired;
  }

  private static void assertFiredInOrder(List<Timer> fired) {
    for (int i = 1; i < fired.size(); i++) {
      assertThat(fired.get(i).time()).isGreaterThanOrEqualTo(fired.get(i - 1).time());
    }
  }

  private KeyedStateBackend backend(int subtask, int parallelism, OperatorSubtaskState restored)
      throws Exception {
    return backends().backend(subtask, parallelism, restored);
  }

  private TestBackends backends() {
    return new TestBackends(jobDirectory, "timers");
  }
}
