package io.weir.rocksdb;

import java.util.Arrays;
import java.util.Comparator;
import java.util.List;
import java.util.TreeSet;

/**
 * The timers of one key group: all in RocksDB, the earliest few also in a bounded cache, so that
 * the next timer is known without a read and most registrations (later than the cached ones) are
 * one write. Invariant: the cache holds the earliest {@code min(capacity, count)} timers of the key
 * group; when {@link #allCached} is false RocksDB has more, each later than every cached one.
 */
final class KeyGroupTimers {
  /** A timer as RocksDB orders it within a key group: by time, then serialized key. */
  record CachedTimer(long time, byte[] recordKey) {}

  static final Comparator<CachedTimer> ORDER =
      Comparator.comparingLong(CachedTimer::time)
          .thenComparing(CachedTimer::recordKey, Arrays::compareUnsigned);

  private static final byte[] NO_VALUE = new byte[0];

  private final int keyGroup;
  private final int capacity;
  private final ColumnFamily family;
  private final TreeSet<CachedTimer> cache = new TreeSet<>(ORDER);
  private boolean allCached;

  /** Loads the earliest timers of {@code keyGroup} from {@code family}. */
  KeyGroupTimers(int keyGroup, int capacity, ColumnFamily family) {
    this.keyGroup = keyGroup;
    this.capacity = capacity;
    this.family = family;
    refill();
  }

  int keyGroup() {
    return keyGroup;
  }

  /** The earliest timer of the key group, or null when it has none. */
  CachedTimer head() {
    return cache.isEmpty() ? null : cache.first();
  }

  void add(long time, byte[] recordKey) {
    family.put(TimerKeys.timerKey(keyGroup, time, recordKey), NO_VALUE);
    CachedTimer timer = new CachedTimer(time, recordKey);
    if (allCached || ORDER.compare(timer, cache.last()) < 0) {
      cache.add(timer);
      if (cache.size() > capacity) {
        cache.pollLast();
        allCached = false;
      }
    }
  }

  void remove(long time, byte[] recordKey) {
    byte[] timerKey = TimerKeys.timerKey(keyGroup, time, recordKey);
    family.delete(timerKey);
    if (cache.remove(new CachedTimer(time, recordKey)) && cache.isEmpty() && !allCached) {
      // Every timer left is later than the last cached one, which this was: seeking from it skips
      // the deletions of the timers fired before, which RocksDB keeps until a compaction.
      refill(timerKey);
    }
  }

  private void refill() {
    refill(StateKeys.firstOf(keyGroup));
  }

  private void refill(byte[] from) {
    List<byte[]> keys = family.keysWithPrefix(StateKeys.firstOf(keyGroup), from, capacity + 1);
    for (byte[] key : keys.subList(0, Math.min(capacity, keys.size()))) {
      cache.add(new CachedTimer(TimerKeys.timeOf(key), TimerKeys.recordKeyOf(key)));
    }
    allCached = keys.size() <= capacity;
  }
}
