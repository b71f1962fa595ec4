package io.weir.rocksdb;

import java.util.ArrayList;
import java.util.List;
import java.util.function.BiConsumer;
import org.rocksdb.ColumnFamilyHandle;
import org.rocksdb.ReadOptions;
import org.rocksdb.RocksDB;
import org.rocksdb.RocksDBException;
import org.rocksdb.RocksIterator;
import org.rocksdb.WriteBatch;
import org.rocksdb.WriteOptions;

/**
 * One named state's column family, read and written for the backend's current key. RocksDB errors
 * become unchecked {@link IllegalStateException}s naming the state: the state API does not throw.
 */
final class ColumnFamily {
  private final String stateName;
  private final RocksDB db;
  private final ColumnFamilyHandle handle;
  private final WriteOptions writeOptions;
  private final ReadOptions readOptions;
  private final CurrentKey currentKey;

  ColumnFamily(
      String stateName,
      RocksDB db,
      ColumnFamilyHandle handle,
      WriteOptions writeOptions,
      ReadOptions readOptions,
      CurrentKey currentKey) {
    this.stateName = stateName;
    this.db = db;
    this.handle = handle;
    this.writeOptions = writeOptions;
    this.readOptions = readOptions;
    this.currentKey = currentKey;
  }

  /** The key the backend is positioned on, serialized and prefixed by its key group. */
  interface CurrentKey {
    byte[] prefix();
  }

  byte[] currentPrefix() {
    return currentKey.prefix();
  }

  byte[] get(byte[] key) {
    try {
      return db.get(handle, readOptions, key);
    } catch (RocksDBException e) {
      throw failure("read", e);
    }
  }

  void put(byte[] key, byte[] value) {
    try {
      db.put(handle, writeOptions, key, value);
    } catch (RocksDBException e) {
      throw failure("write", e);
    }
  }

  /** Appends {@code value} to the entry's value (see {@link RocksDbInstance}'s merge operator). */
  void append(byte[] key, byte[] value) {
    try {
      db.merge(handle, writeOptions, key, value);
    } catch (RocksDBException e) {
      throw failure("append to", e);
    }
  }

  void delete(byte[] key) {
    try {
      db.delete(handle, writeOptions, key);
    } catch (RocksDBException e) {
      throw failure("delete from", e);
    }
  }

  /** Adds a put of the entry to {@code batch}, for {@link #write}. */
  void put(WriteBatch batch, byte[] key, byte[] value) {
    try {
      batch.put(handle, key, value);
    } catch (RocksDBException e) {
      throw failure("batch a write to", e);
    }
  }

  /** Adds a delete of the entry to {@code batch}, for {@link #write}. */
  void delete(WriteBatch batch, byte[] key) {
    try {
      batch.delete(handle, key);
    } catch (RocksDBException e) {
      throw failure("batch a delete from", e);
    }
  }

  /** Applies the puts and deletes of {@code batch} at once. */
  void write(WriteBatch batch) {
    try {
      db.write(writeOptions, batch);
    } catch (RocksDBException e) {
      throw failure("write a batch to", e);
    }
  }

  /** Every entry whose key starts with {@code prefix}, in key order. */
  void forEachWithPrefix(byte[] prefix, BiConsumer<byte[], byte[]> action) {
    try (RocksIterator iterator = db.newIterator(handle, readOptions)) {
      for (iterator.seek(prefix); iterator.isValid(); iterator.next()) {
        byte[] key = iterator.key();
        if (!StateKeys.startsWith(key, prefix)) {
          break;
        }
        action.accept(key, iterator.value());
      }
    }
  }

  /**
   * The first {@code limit} keys that start with {@code prefix}, from {@code from} on (a key with
   * that prefix), in key order.
   */
  List<byte[]> keysWithPrefix(byte[] prefix, byte[] from, int limit) {
    List<byte[]> keys = new ArrayList<>();
    try (RocksIterator iterator = db.newIterator(handle, readOptions)) {
      for (iterator.seek(from); iterator.isValid() && keys.size() < limit; iterator.next()) {
        byte[] key = iterator.key();
        if (!StateKeys.startsWith(key, prefix)) {
          break;
        }
        keys.add(key);
      }
    }
    return keys;
  }

  /** Every entry of this subtask, in key order. */
  void forEach(BiConsumer<byte[], byte[]> action) {
    forEachWithPrefix(new byte[0], action);
  }

  private IllegalStateException failure(String what, RocksDBException e) {
    return new IllegalStateException(
        "Cannot " + what + " state '" + stateName + "' in RocksDB: " + e.getMessage(), e);
  }
}
