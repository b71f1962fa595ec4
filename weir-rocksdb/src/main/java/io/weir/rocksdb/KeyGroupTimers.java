package io.weir.rocksdb;

import java.util.Arrays;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * The timers of one key group: the earliest few in a bounded cache, the others in RocksDB, so that
 * the next timer is known without a read. Invariant: the cache holds the earliest {@code
 * min(capacity, count)} timers of the key group; when {@link #allCached} is false RocksDB has more,
 * each later than every cached one.
 *
 * <p>A timer registered into the cache is written to RocksDB only when it leaves the cache unfired
 * (pushed out by earlier ones) or a snapshot is taken ({@link #storeCached}); most timers fire
 * sooner, and then cost RocksDB neither their put nor their delete. A timer that RocksDB holds is
 * deleted there when it fires or is deleted.
 */
final class KeyGroupTimers {
  /** A timer as RocksDB orders it within a key group: by time, then serialized key. */
  record CachedTimer(long time, byte[] recordKey) {}

  /** Whether RocksDB holds a copy of a cached timer. */
  private enum Copy {
    /** Registered since the last snapshot and never pushed out of the cache: only here. */
    CACHED_ONLY,
    /** Also in RocksDB: read from it, or written before a snapshot or when pushed out. */
    STORED
  }

  /** Written out rather than composed: every cache and head update runs it several times. */
  static final Comparator<CachedTimer> ORDER =
      (first, second) -> {
        int byTime = Long.compare(first.time(), second.time());
        return byTime != 0 ? byTime : Arrays.compareUnsigned(first.recordKey(), second.recordKey());
      };

  private final int keyGroup;
  private final int capacity;
  private final ColumnFamily family;
  private final TimerWrites writes;
  private final TreeMap<CachedTimer, Copy> cache = new TreeMap<>(ORDER);
  private boolean allCached;

  /**
   * Loads the earliest timers of {@code keyGroup} from {@code family}, to which {@code writes}
   * writes.
   */
  KeyGroupTimers(int keyGroup, int capacity, ColumnFamily family, TimerWrites writes) {
    this.keyGroup = keyGroup;
    this.capacity = capacity;
    this.family = family;
    this.writes = writes;
    refill(StateKeys.firstOf(keyGroup));
  }

  int keyGroup() {
    return keyGroup;
  }

  /** The earliest timer of the key group, or null when it has none. */
  CachedTimer head() {
    return cache.isEmpty() ? null : cache.firstKey();
  }

  void add(long time, byte[] recordKey) {
    CachedTimer timer = new CachedTimer(time, recordKey);
    if (!allCached && ORDER.compare(timer, cache.lastKey()) > 0) {
      // Later than every cached timer: its place is RocksDB, where registering it again is a no-op.
      writes.put(TimerKeys.timerKey(keyGroup, time, recordKey));
      return;
    }
    // The cache holds every timer up to its last, so one not in it is new.
    if (cache.putIfAbsent(timer, Copy.CACHED_ONLY) == null && cache.size() > capacity) {
      Map.Entry<CachedTimer, Copy> pushedOut = cache.pollLastEntry();
      if (pushedOut.getValue() == Copy.CACHED_ONLY) {
        CachedTimer last = pushedOut.getKey();
        writes.put(TimerKeys.timerKey(keyGroup, last.time(), last.recordKey()));
      }
      allCached = false;
    }
  }

  void remove(long time, byte[] recordKey) {
    CachedTimer timer = new CachedTimer(time, recordKey);
    Copy copy = cache.remove(timer);
    if (copy != null) {
      removed(timer, copy);
    } else if (mayBeStoredUncached(timer)) {
      writes.delete(TimerKeys.timerKey(keyGroup, time, recordKey));
    }
  }

  /** Takes out the earliest timer ({@link #head}): without a search, as the queue fires them. */
  void removeHead() {
    Map.Entry<CachedTimer, Copy> head = cache.pollFirstEntry();
    removed(head.getKey(), head.getValue());
  }

  private void removed(CachedTimer timer, Copy copy) {
    if (copy == Copy.STORED) {
      writes.delete(TimerKeys.timerKey(keyGroup, timer.time(), timer.recordKey()));
    }
    if (cache.isEmpty() && !allCached) {
      // Every timer left is later than the last cached one, which this was: seeking from it skips
      // the deletions of the timers fired before, which RocksDB keeps until a compaction.
      writes.apply();
      refill(TimerKeys.timerKey(keyGroup, timer.time(), timer.recordKey()));
    }
  }

  /** Whether RocksDB may hold {@code timer} though the cache does not: only past the cache. */
  private boolean mayBeStoredUncached(CachedTimer timer) {
    return !allCached && ORDER.compare(timer, cache.lastKey()) > 0;
  }

  /** Writes the timers only the cache holds to RocksDB, so that a snapshot of it has them all. */
  void storeCached() {
    for (Map.Entry<CachedTimer, Copy> entry : cache.entrySet()) {
      if (entry.getValue() == Copy.CACHED_ONLY) {
        CachedTimer timer = entry.getKey();
        writes.put(TimerKeys.timerKey(keyGroup, timer.time(), timer.recordKey()));
        entry.setValue(Copy.STORED);
      }
    }
  }

  private void refill(byte[] from) {
    List<byte[]> keys = family.keysWithPrefix(StateKeys.firstOf(keyGroup), from, capacity + 1);
    for (byte[] key : keys.subList(0, Math.min(capacity, keys.size()))) {
      cache.put(new CachedTimer(TimerKeys.timeOf(key), TimerKeys.recordKeyOf(key)), Copy.STORED);
    }
    allCached = keys.size() <= capacity;
  }
}
