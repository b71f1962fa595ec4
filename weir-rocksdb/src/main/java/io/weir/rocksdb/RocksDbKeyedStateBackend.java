package io.weir.rocksdb;

import io.weir.api.datastream.SuppressRestartsException;
import io.weir.api.state.ListState;
import io.weir.api.state.ListStateDescriptor;
import io.weir.api.state.MapState;
import io.weir.api.state.MapStateDescriptor;
import io.weir.api.state.ReducingState;
import io.weir.api.state.ReducingStateDescriptor;
import io.weir.api.state.StateSerializer;
import io.weir.api.state.StateSerializers;
import io.weir.api.state.ValueState;
import io.weir.api.state.ValueStateDescriptor;
import io.weir.rocksdb.RocksDbTypeSchemas.EntriesWithoutSchema;
import io.weir.rocksdb.RocksDbTypeSchemas.Shape;
import io.weir.runtime.checkpoint.storage.Directories;
import io.weir.runtime.state.KeyGroupRange;
import io.weir.runtime.state.KeyGroups;
import io.weir.runtime.state.KeyedStateBackend;
import io.weir.runtime.state.KeyedTable;
import io.weir.runtime.state.KeyedTimerQueue;
import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.rocksdb.RocksDBException;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Keyed state in an embedded RocksDB on local disk: one column family per state, every key prefixed
 * by its key group, values serialized by their descriptor's serializer on every access. Only the
 * block cache and memtables are in (native) memory, so the state may be many times the heap.
 * Checkpoints are incremental ({@link IncrementalSnapshots}).
 */
final class RocksDbKeyedStateBackend implements KeyedStateBackend {
  private static final Logger LOG = LoggerFactory.getLogger(RocksDbKeyedStateBackend.class);
  private static final StateSerializer<Object> KEY_SERIALIZER = StateSerializers.tagged();

  private final RocksDbInstance instance;
  private final KeyGroupRange range;
  private final int maxParallelism;
  private final Path workingDirectory;
  private final IncrementalSnapshots snapshots;
  private final String operatorUid;
  private RocksDbTypeSchemas typeSchemas;
  private final Map<String, ColumnFamily> families = new HashMap<>();
  private final Map<String, KeyedTable> tables = new HashMap<>();
  private final List<RocksDbTimerQueue> timerQueues = new ArrayList<>();
  private Object currentKey;
  private int currentKeyGroup;
  private byte[] currentSerializedKey;
  private byte[] currentPrefix;
  private boolean closed;

  RocksDbKeyedStateBackend(
      RocksDbInstance instance,
      KeyGroupRange range,
      int maxParallelism,
      Path workingDirectory,
      IncrementalSnapshots snapshots,
      String operatorUid) {
    this.instance = instance;
    this.operatorUid = operatorUid;
    this.range = range;
    this.maxParallelism = maxParallelism;
    this.workingDirectory = workingDirectory;
    this.snapshots = snapshots;
  }

  @Override
  public void setCurrentKey(Object key) {
    int keyGroup = KeyGroups.keyGroupOf(key, maxParallelism);
    if (!range.contains(keyGroup)) {
      throw new IllegalStateException(
          "Key " + key + " belongs to key group " + keyGroup + ", not to this subtask's " + range);
    }
    currentKey = key;
    currentKeyGroup = keyGroup;
    currentSerializedKey = KEY_SERIALIZER.serialize(key);
    currentPrefix = StateKeys.prefix(keyGroup, currentSerializedKey);
  }

  @Override
  public Object currentKey() {
    return currentKey;
  }

  @Override
  public KeyGroupRange range() {
    return range;
  }

  int currentKeyGroup() {
    currentPrefix();
    return currentKeyGroup;
  }

  byte[] currentSerializedKey() {
    currentPrefix();
    return currentSerializedKey;
  }

  private byte[] currentPrefix() {
    if (currentPrefix == null) {
      throw new IllegalStateException("Keyed state is used outside of a keyed context");
    }
    return currentPrefix;
  }

  private ColumnFamily family(String name) {
    return families.computeIfAbsent(
        name,
        n -> {
          try {
            return new ColumnFamily(
                n,
                instance.db(),
                instance.family(n),
                instance.writeOptions(),
                instance.readOptions(),
                this::currentPrefix);
          } catch (RocksDBException e) {
            throw new IllegalStateException("Cannot create state '" + n + "' in RocksDB", e);
          }
        });
  }

  @Override
  public KeyedTable table(String name, StateSerializer<Object> valueSerializer) {
    return tables.computeIfAbsent(
        name,
        n ->
            new RocksDbTable(
                declared(
                    n, Shape.VALUE, EntriesWithoutSchema.READ_BY_THE_SERIALIZER, valueSerializer),
                KEY_SERIALIZER,
                valueSerializer));
  }

  /**
   * Timers in a column family of their own, named apart from the operator's tables: see {@link
   * RocksDbTimerQueue}.
   */
  @Override
  public KeyedTimerQueue timerQueue(String name) {
    failIfTimersOfAnEarlierLayout(name);
    RocksDbTimerQueue queue =
        new RocksDbTimerQueue(this, family("timer-queue:" + name), KEY_SERIALIZER, range);
    timerQueues.add(queue);
    return queue;
  }

  /**
   * State restored from a checkpoint that kept timers as a table of the same name: they would never
   * fire, so the restore fails, for good, rather than drop them.
   */
  private void failIfTimersOfAnEarlierLayout(String name) {
    if (instance.familyNames().contains(name)
        && !family(name).keysWithPrefix(new byte[0], new byte[0], 1).isEmpty()) {
      throw new SuppressRestartsException(
          "The restored RocksDB state keeps the timers '"
              + name
              + "' in a layout this version does not read; restore it with the version that wrote"
              + " it, or start without state",
          null);
    }
  }

  /** The family of a state a descriptor declares, its entries rewritten if its type changed. */
  private ColumnFamily declared(String name, Shape shape, StateSerializer<?>... serializers) {
    return declared(name, shape, EntriesWithoutSchema.REFUSED, serializers);
  }

  private ColumnFamily declared(
      String name,
      Shape shape,
      EntriesWithoutSchema withoutSchema,
      StateSerializer<?>... serializers) {
    if (typeSchemas == null) {
      typeSchemas = new RocksDbTypeSchemas(family(RocksDbTypeSchemas.FAMILY), range, operatorUid);
    }
    ColumnFamily family = family(name);
    typeSchemas.declare(name, family, shape, withoutSchema, serializers);
    return family;
  }

  @Override
  public <T> ValueState<T> getState(ValueStateDescriptor<T> descriptor) {
    StateSerializer<T> serializer = descriptor.serializer();
    return new RocksDbValueState<>(
        declared(descriptor.name(), Shape.VALUE, serializer), serializer);
  }

  @Override
  public <T> ListState<T> getListState(ListStateDescriptor<T> descriptor) {
    StateSerializer<T> serializer = descriptor.serializer();
    return new RocksDbListState<>(declared(descriptor.name(), Shape.LIST, serializer), serializer);
  }

  @Override
  public <K, V> MapState<K, V> getMapState(MapStateDescriptor<K, V> descriptor) {
    StateSerializer<K> keys = descriptor.keySerializer();
    StateSerializer<V> values = descriptor.serializer();
    return new RocksDbMapState<>(
        declared(descriptor.name(), Shape.MAP, keys, values), keys, values);
  }

  @Override
  public <T> ReducingState<T> getReducingState(ReducingStateDescriptor<T> descriptor) {
    StateSerializer<T> serializer = descriptor.serializer();
    return new RocksDbReducingState<>(
        declared(descriptor.name(), Shape.VALUE, serializer),
        serializer,
        descriptor.reduceFunction());
  }

  /** Every key group of the range maps to the same handle; see {@link SnapshotHandle}. */
  @Override
  public Map<Integer, byte[]> snapshot(long checkpointId) throws RocksDBException, IOException {
    // The timer queues keep recent timers on the heap only and batch their writes.
    timerQueues.forEach(RocksDbTimerQueue::storeBeforeSnapshot);
    byte[] handle = snapshots.take(checkpointId);
    Map<Integer, byte[]> keyGroups = new HashMap<>();
    for (int keyGroup = range.start(); keyGroup <= range.end(); keyGroup++) {
      keyGroups.put(keyGroup, handle);
    }
    return keyGroups;
  }

  @Override
  public Map<Integer, byte[]> materializeSnapshot(long checkpointId) throws IOException {
    snapshots.materialize(checkpointId);
    return Map.of();
  }

  @Override
  public void notifyCheckpointComplete(long checkpointId) {
    snapshots.completed(checkpointId);
  }

  /** Counts the entries of state {@code name} in this subtask; for tests and inspection. */
  void countEntries(String name, Runnable perEntry) {
    family(name).forEach((key, value) -> perEntry.run());
  }

  @Override
  public void close() {
    if (closed) {
      return;
    }
    closed = true;
    timerQueues.forEach(RocksDbTimerQueue::close);
    instance.close();
    try {
      Directories.deleteRecursively(workingDirectory);
    } catch (IOException e) {
      // The next process start deletes what is left of a process that ended.
      LOG.warn("Could not delete RocksDB directory {}: {}", workingDirectory, e.toString());
    }
  }
}
