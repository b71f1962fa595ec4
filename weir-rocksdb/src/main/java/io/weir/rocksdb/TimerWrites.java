package io.weir.rocksdb;

import org.rocksdb.WriteBatch;

/**
 * The writes of one timer queue to its column family, gathered in a write batch: a timer's put or
 * delete is then an append to a buffer, and RocksDB takes the batch in one write. The batch is
 * applied when it is full, before the family is read (so a read sees every write before it) and
 * before a snapshot; a batch not applied when the backend closes is discarded with the local state.
 */
final class TimerWrites implements AutoCloseable {
  /** Enough to amortize the write, small enough that the buffer stays a few hundred kilobytes. */
  private static final int MOST_PENDING = 500;

  private static final byte[] NO_VALUE = new byte[0];

  private final ColumnFamily family;
  private final WriteBatch batch = new WriteBatch();
  private int pending;

  TimerWrites(ColumnFamily family) {
    this.family = family;
  }

  void put(byte[] timerKey) {
    family.put(batch, timerKey, NO_VALUE);
    maybeApply();
  }

  void delete(byte[] timerKey) {
    family.delete(batch, timerKey);
    maybeApply();
  }

  /** Writes the gathered puts and deletes to RocksDB; does nothing when there are none. */
  void apply() {
    if (pending > 0) {
      family.write(batch);
      batch.clear();
      pending = 0;
    }
  }

  private void maybeApply() {
    if (++pending >= MOST_PENDING) {
      apply();
    }
  }

  @Override
  public void close() {
    batch.close();
  }
}
