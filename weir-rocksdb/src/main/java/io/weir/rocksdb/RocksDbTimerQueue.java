package io.weir.rocksdb;

import io.weir.api.state.StateSerializer;
import io.weir.rocksdb.KeyGroupTimers.CachedTimer;
import io.weir.runtime.state.KeyGroupRange;
import io.weir.runtime.state.KeyedTimerQueue;
import java.util.Comparator;
import java.util.TreeSet;

/**
 * Timers in a column family of RocksDB (layout: {@link TimerKeys}), ordered within each key group,
 * with only the earliest few of each key group on the heap ({@link KeyGroupTimers}) and the key
 * groups ordered by their earliest timer. So the number of timers is bounded by the disk, not the
 * heap; a checkpoint, restore or rescale carries them as any other state of the key groups. The
 * writes go to RocksDB in batches ({@link TimerWrites}), and a timer that fires while still cached
 * is never written; so the backend calls {@link #storeBeforeSnapshot} before each snapshot.
 */
final class RocksDbTimerQueue implements KeyedTimerQueue, AutoCloseable {
  /** Cached timers of all key groups together, at most; so a large key-group range stays small. */
  private static final int CACHED_TIMERS = 16384;

  private static final int MOST_CACHED_PER_KEY_GROUP = 256;
  private static final int LEAST_CACHED_PER_KEY_GROUP = 4;

  /** A key group's earliest timer, as the order of the key groups knows it. */
  private record Head(CachedTimer timer, int keyGroupIndex) {}

  private static final Comparator<Head> HEAD_ORDER =
      (first, second) -> {
        int byTimer = KeyGroupTimers.ORDER.compare(first.timer(), second.timer());
        return byTimer != 0
            ? byTimer
            : Integer.compare(first.keyGroupIndex(), second.keyGroupIndex());
      };

  private final RocksDbKeyedStateBackend backend;
  private final StateSerializer<Object> keySerializer;
  private final KeyGroupRange range;
  private final TimerWrites writes;
  private final KeyGroupTimers[] keyGroups;
  private final Head[] headOf;
  private final TreeSet<Head> heads = new TreeSet<>(HEAD_ORDER);

  RocksDbTimerQueue(
      RocksDbKeyedStateBackend backend,
      ColumnFamily family,
      StateSerializer<Object> keySerializer,
      KeyGroupRange range) {
    this.backend = backend;
    this.keySerializer = keySerializer;
    this.range = range;
    this.writes = new TimerWrites(family);
    this.keyGroups = new KeyGroupTimers[range.size()];
    this.headOf = new Head[range.size()];
    int perKeyGroup = cachedPerKeyGroup(range.size());
    for (int index = 0; index < keyGroups.length; index++) {
      keyGroups[index] = new KeyGroupTimers(range.start() + index, perKeyGroup, family, writes);
      updateHead(index);
    }
  }

  static int cachedPerKeyGroup(int keyGroupCount) {
    return Math.max(
        LEAST_CACHED_PER_KEY_GROUP,
        Math.min(MOST_CACHED_PER_KEY_GROUP, CACHED_TIMERS / Math.max(1, keyGroupCount)));
  }

  @Override
  public void register(long time) {
    int index = backend.currentKeyGroup() - range.start();
    keyGroups[index].add(time, backend.currentSerializedKey());
    updateHead(index);
  }

  @Override
  public void delete(long time) {
    int index = backend.currentKeyGroup() - range.start();
    keyGroups[index].remove(time, backend.currentSerializedKey());
    updateHead(index);
  }

  @Override
  public long nextTime() {
    return heads.isEmpty() ? Long.MAX_VALUE : heads.first().timer().time();
  }

  @Override
  public Timer pollDue(long time) {
    Head head = heads.isEmpty() ? null : heads.first();
    if (head == null || head.timer().time() > time) {
      return null;
    }
    // The earliest of all is the earliest of its key group: both come out without a search.
    heads.pollFirst();
    int index = head.keyGroupIndex();
    headOf[index] = null;
    keyGroups[index].removeHead();
    updateHead(index);
    CachedTimer timer = head.timer();
    Object key = keySerializer.deserialize(timer.recordKey());
    backend.setCurrentKey(key);
    return new Timer(timer.time(), key);
  }

  /**
   * Writes every timer to RocksDB that is not there yet, and deletes every one fired or deleted.
   */
  void storeBeforeSnapshot() {
    for (KeyGroupTimers keyGroup : keyGroups) {
      keyGroup.storeCached();
    }
    writes.apply();
  }

  /** Releases the write batch; the timers not written are discarded with the local state. */
  @Override
  public void close() {
    writes.close();
  }

  /** Moves key group {@code index} to its place among the others after its timers changed. */
  private void updateHead(int index) {
    CachedTimer current = keyGroups[index].head();
    Head known = headOf[index];
    if (known != null && known.timer() == current) {
      return;
    }
    if (known != null) {
      heads.remove(known);
    }
    headOf[index] = current == null ? null : new Head(current, index);
    if (current != null) {
      heads.add(headOf[index]);
    }
  }
}
