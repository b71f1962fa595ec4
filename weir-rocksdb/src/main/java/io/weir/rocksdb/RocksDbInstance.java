package io.weir.rocksdb;

import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.rocksdb.BlockBasedTableConfig;
import org.rocksdb.BloomFilter;
import org.rocksdb.ColumnFamilyDescriptor;
import org.rocksdb.ColumnFamilyHandle;
import org.rocksdb.ColumnFamilyOptions;
import org.rocksdb.DBOptions;
import org.rocksdb.FlushOptions;
import org.rocksdb.Options;
import org.rocksdb.ReadOptions;
import org.rocksdb.RocksDB;
import org.rocksdb.RocksDBException;
import org.rocksdb.StringAppendOperator;
import org.rocksdb.WriteOptions;

/**
 * One open RocksDB with a column family per state, and the options it was opened with. The write
 * ahead log is off: the state is recovered from checkpoints, never from the local directory. A
 * merge appends its bytes to the value without a delimiter, for states whose values frame their own
 * elements (list state). Every SST file carries a Bloom filter of its keys: a checkpoint flushes
 * the memtables, so a read may meet many small files, and most hold none of the key it looks for
 * (or, for a key absent from the state, none do); the filter answers for them without reading their
 * blocks. Closing releases the native memory; the caller deletes the directory.
 */
final class RocksDbInstance implements AutoCloseable {
  /** RocksDB's usual setting: about one false positive in a hundred. */
  private static final double BLOOM_FILTER_BITS_PER_KEY = 10;

  static {
    RocksDB.loadLibrary();
  }

  private final Path directory;
  private final DBOptions dbOptions;
  private final StringAppendOperator appendOperator = new StringAppendOperator("");
  private final BloomFilter keyFilter = new BloomFilter(BLOOM_FILTER_BITS_PER_KEY);
  private final ColumnFamilyOptions familyOptions;
  private final WriteOptions writeOptions = new WriteOptions().setDisableWAL(true);
  private final ReadOptions readOptions = new ReadOptions();
  private final RocksDB db;
  private final Map<String, ColumnFamilyHandle> families = new LinkedHashMap<>();
  private final ColumnFamilyHandle defaultFamily;

  /** Opens (creating if missing) the database in {@code directory} with all its column families. */
  RocksDbInstance(Path directory) throws RocksDBException {
    this.directory = directory;
    this.dbOptions =
        new DBOptions()
            .setCreateIfMissing(true)
            .setCreateMissingColumnFamilies(true)
            .setMaxBackgroundJobs(2)
            .setMaxOpenFiles(-1);
    this.familyOptions =
        new ColumnFamilyOptions()
            .setWriteBufferSize(32L << 20)
            .setMaxWriteBufferNumber(2)
            .setMergeOperator(appendOperator)
            .setTableFormatConfig(new BlockBasedTableConfig().setFilterPolicy(keyFilter));
    List<ColumnFamilyDescriptor> descriptors = new ArrayList<>();
    for (byte[] name : existingFamilies(directory)) {
      descriptors.add(new ColumnFamilyDescriptor(name, familyOptions));
    }
    if (descriptors.isEmpty()) {
      descriptors.add(new ColumnFamilyDescriptor(RocksDB.DEFAULT_COLUMN_FAMILY, familyOptions));
    }
    List<ColumnFamilyHandle> handles = new ArrayList<>();
    this.db = RocksDB.open(dbOptions, directory.toString(), descriptors, handles);
    ColumnFamilyHandle defaultHandle = null;
    for (int i = 0; i < descriptors.size(); i++) {
      String name = new String(descriptors.get(i).getName(), StandardCharsets.UTF_8);
      if (name.equals("default")) {
        defaultHandle = handles.get(i);
      } else {
        families.put(name, handles.get(i));
      }
    }
    this.defaultFamily = defaultHandle;
  }

  private static List<byte[]> existingFamilies(Path directory) throws RocksDBException {
    if (!directory.resolve("CURRENT").toFile().exists()) {
      return List.of();
    }
    try (Options options = new Options()) {
      return RocksDB.listColumnFamilies(options, directory.toString());
    }
  }

  Path directory() {
    return directory;
  }

  RocksDB db() {
    return db;
  }

  WriteOptions writeOptions() {
    return writeOptions;
  }

  ReadOptions readOptions() {
    return readOptions;
  }

  /** The names of the column families, default excluded. */
  List<String> familyNames() {
    return List.copyOf(families.keySet());
  }

  /** The column family of state {@code name}, created on first use. */
  ColumnFamilyHandle family(String name) throws RocksDBException {
    ColumnFamilyHandle handle = families.get(name);
    if (handle == null) {
      handle =
          db.createColumnFamily(
              new ColumnFamilyDescriptor(name.getBytes(StandardCharsets.UTF_8), familyOptions));
      families.put(name, handle);
    }
    return handle;
  }

  /** Writes the memtables to SST files, so that a RocksDB checkpoint holds everything. */
  void flush() throws RocksDBException {
    List<ColumnFamilyHandle> all = new ArrayList<>(families.values());
    all.add(defaultFamily);
    try (FlushOptions options = new FlushOptions().setWaitForFlush(true)) {
      db.flush(options, all);
    }
  }

  @Override
  public void close() {
    families.values().forEach(ColumnFamilyHandle::close);
    if (defaultFamily != null) {
      defaultFamily.close();
    }
    db.close();
    writeOptions.close();
    readOptions.close();
    familyOptions.close();
    appendOperator.close();
    keyFilter.close();
    dbOptions.close();
  }
}
