package io.weir.runtime.state;

import io.weir.api.checkpoint.CheckpointDeclinedException;
import io.weir.api.state.ListState;
import io.weir.api.state.ListStateDescriptor;
import io.weir.api.state.MapState;
import io.weir.api.state.MapStateDescriptor;
import io.weir.api.state.ReducingState;
import io.weir.api.state.ReducingStateDescriptor;
import io.weir.api.state.StateSerializer;
import io.weir.api.state.ValueState;
import io.weir.api.state.ValueStateDescriptor;
import io.weir.runtime.state.KeyedBackendContext.SnapshotFiles;
import io.weir.runtime.state.TypedStateCodec.Shape;
import java.io.IOException;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;

/**
 * Keyed state of one operator in one subtask, on the heap, organised by key group so that a
 * snapshot is written key group by key group and a restore with another parallelism can take whole
 * key groups. The task thread sets the current key before each record or timer.
 */
public final class HeapKeyedStateBackend implements KeyedStateBackend {
  /**
   * The format of key groups written before {@link HeapKeyGroupFormat}: one Java-serialized map
   * from state name to the state's entries (a map of objects, or a {@link TypedKeyGroup}).
   */
  private static final StateSerializer<Map<String, Object>> EARLIER_FORMAT = StateSerializer.java();

  private final KeyGroupRange range;
  private final int maxParallelism;
  private final Map<String, HeapStateTable> tables = new LinkedHashMap<>();
  private final TypedStates typedStates;
  private final SharedValueCopies sharedValueCopies;
  private final HeapSnapshotFiles snapshotFiles;
  private final Path restoredFrom;

  /** The writes whose asynchronous part has not taken them yet, by checkpoint id. */
  private final Map<Long, HeapSnapshotWrite> writes = new ConcurrentHashMap<>();

  /** The write the tables share their maps with, until it is over; on the task thread. */
  private HeapSnapshotWrite sharing;

  private Object currentKey;
  private int currentKeyGroupIndex;

  /**
   * A backend whose snapshots are bytes in memory, for checkpoints that stay in memory.
   *
   * @param operatorUid the operator's stable id, named by restore errors
   */
  public HeapKeyedStateBackend(
      String operatorUid, KeyGroupRange range, int maxParallelism, OperatorSubtaskState restored) {
    this(operatorUid, range, maxParallelism, restored, HeapSnapshotFiles.none());
  }

  /** A backend whose snapshots go to files where {@code snapshotFiles} says. */
  HeapKeyedStateBackend(
      String operatorUid,
      KeyGroupRange range,
      int maxParallelism,
      OperatorSubtaskState restored,
      HeapSnapshotFiles snapshotFiles) {
    this.range = range;
    this.maxParallelism = maxParallelism;
    this.typedStates = new TypedStates(operatorUid);
    this.sharedValueCopies = new SharedValueCopies(typedStates);
    this.snapshotFiles = snapshotFiles;
    this.restoredFrom = restored.location();
    restored.keyGroups().forEach(this::restoreKeyGroup);
  }

  @Override
  public void setCurrentKey(Object key) {
    int keyGroup = KeyGroups.keyGroupOf(key, maxParallelism);
    if (!range.contains(keyGroup)) {
      throw new IllegalStateException(
          "Key " + key + " belongs to key group " + keyGroup + ", not to this subtask's " + range);
    }
    currentKey = key;
    currentKeyGroupIndex = keyGroup - range.start();
  }

  @Override
  public Object currentKey() {
    return currentKey;
  }

  @Override
  public KeyGroupRange range() {
    return range;
  }

  public int maxParallelism() {
    return maxParallelism;
  }

  /** The table of one named state; created on first use. */
  @Override
  public HeapStateTable table(String name) {
    return tables.computeIfAbsent(name, n -> new HeapStateTable(this, n, range.size()));
  }

  /**
   * The heap keeps the table's values as objects. A snapshot writes them with {@code
   * valueSerializer} when it is an {@link io.weir.api.types.EvolvingSerializer}, as a typed state's
   * (a checkpoint of many keys writes far fewer objects so than by Java serialization of each
   * value), and by Java serialization otherwise.
   */
  @Override
  public HeapStateTable table(String name, StateSerializer<Object> valueSerializer) {
    return declared(name, TypedStateCodec.maybeOf(Shape.VALUE, valueSerializer));
  }

  /** Timers in a table of the state: see {@link HeapTimerQueue}. */
  @Override
  public KeyedTimerQueue timerQueue(String name) {
    return new HeapTimerQueue(this, table(name));
  }

  /** The table of a state a descriptor declares; restored typed values are read in now. */
  private HeapStateTable declared(String name, TypedStateCodec codec) {
    HeapStateTable table = table(name);
    typedStates.declare(name, codec, table);
    return table;
  }

  @Override
  public <T> ValueState<T> getState(ValueStateDescriptor<T> descriptor) {
    TypedStateCodec codec = TypedStateCodec.maybeOf(Shape.VALUE, descriptor.serializer());
    return new HeapValueState<>(this, declared(descriptor.name(), codec));
  }

  @Override
  public <T> ListState<T> getListState(ListStateDescriptor<T> descriptor) {
    TypedStateCodec codec = TypedStateCodec.maybeOf(Shape.LIST, descriptor.serializer());
    return new HeapKeyedListState<>(this, declared(descriptor.name(), codec));
  }

  @Override
  public <K, V> MapState<K, V> getMapState(MapStateDescriptor<K, V> descriptor) {
    TypedStateCodec codec =
        TypedStateCodec.maybeOf(Shape.MAP, descriptor.keySerializer(), descriptor.serializer());
    return new HeapMapState<>(this, declared(descriptor.name(), codec));
  }

  @Override
  public <T> ReducingState<T> getReducingState(ReducingStateDescriptor<T> descriptor) {
    TypedStateCodec codec = TypedStateCodec.maybeOf(Shape.VALUE, descriptor.serializer());
    return new HeapReducingState<>(
        this, declared(descriptor.name(), codec), descriptor.reduceFunction());
  }

  Object get(HeapStateTable table) {
    if (sharing == null || maybeStopSharing()) {
      return table.group(currentKeyGroupIndex).get(currentKey);
    }
    maybeRelease(table);
    return table.value(currentKeyGroupIndex, currentKey, sharedValueCopies);
  }

  void put(HeapStateTable table, Object value) {
    if (currentKey == null) {
      throw new IllegalStateException("Keyed state is used outside of a keyed context");
    }
    if (sharing != null && !maybeStopSharing()) {
      maybeRelease(table);
    }
    if (value == null) {
      table.group(currentKeyGroupIndex).remove(currentKey);
    } else {
      table.group(currentKeyGroupIndex).put(currentKey, value);
    }
  }

  /** The current key group is the table's alone again once the write in flight passed it. */
  private void maybeRelease(HeapStateTable table) {
    if (currentKeyGroupIndex < sharing.keyGroupsWritten()) {
      table.release(currentKeyGroupIndex);
    }
  }

  /** Stops copying on write once the write in flight is over; true when nothing is shared. */
  private boolean maybeStopSharing() {
    if (!sharing.isOver()) {
      return false;
    }
    tables.values().forEach(HeapStateTable::thaw);
    sharing = null;
    return true;
  }

  /**
   * The synchronous part. When the storage has files: waits for the previous snapshot's write if it
   * is still running (writes it, if it has not started), then freezes the state at the barrier for
   * {@link #materializeSnapshot} to write, and returns no key groups (that part returns them). Else
   * writes every non-empty key group into bytes now, in the {@link HeapKeyGroupFormat}, and returns
   * them.
   */
  @Override
  public Map<Integer, byte[]> snapshot(long checkpointId) {
    if (sharing != null) {
      awaitWriteInFlight(checkpointId);
    }
    Optional<SnapshotFiles> target = snapshotFiles.target(checkpointId);
    if (target.isPresent()) {
      sharing = new HeapSnapshotWrite(checkpointId, target.get(), snapshotFiles, freeze());
      writes.put(checkpointId, sharing);
      return Map.of();
    }
    Map<Integer, byte[]> keyGroups = new HashMap<>();
    Map<String, HashMap<Object, Object>[]> current = new LinkedHashMap<>();
    tables.forEach((name, table) -> current.put(name, table.current()));
    try {
      new FrozenHeapState(range, current, typedStates.freeze())
          .writeTo((keyGroup, writer) -> keyGroups.put(keyGroup, writer.takeKeyGroup()));
    } catch (IOException e) {
      throw new CheckpointDeclinedException(
          "Cannot write the keyed state of checkpoint " + checkpointId + ": " + e);
    }
    return keyGroups;
  }

  /** Waits for the write the tables share with, or writes it; an interrupt declines. */
  private void awaitWriteInFlight(long checkpointId) {
    try {
      sharing.writeOrAwait();
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new CheckpointDeclinedException(
          "Interrupted while checkpoint "
              + checkpointId
              + " waited for the keyed state of the previous one to be written");
    }
    maybeStopSharing();
  }

  /** The tables as they are now, shared with a snapshot until its write is over. */
  private FrozenHeapState freeze() {
    Map<String, HashMap<Object, Object>[]> frozen = new LinkedHashMap<>();
    tables.forEach((name, table) -> frozen.put(name, table.freeze()));
    return new FrozenHeapState(range, frozen, typedStates.freeze());
  }

  /**
   * On the snapshot thread: writes the state the snapshot froze into a file of the checkpoint and
   * returns the key groups' references; nothing when the snapshot wrote bytes. A file that cannot
   * be written declines the checkpoint (the state is only read, so the task goes on as it is), and
   * so does a checkpoint whose write a later completed checkpoint dropped before this part came: an
   * acknowledgement without its keyed state must never complete a checkpoint.
   */
  @Override
  public Map<Integer, byte[]> materializeSnapshot(long checkpointId) throws IOException {
    HeapSnapshotWrite write = writes.remove(checkpointId);
    if (write != null) {
      return write.write();
    }
    if (snapshotFiles.target(checkpointId).isPresent()) {
      throw new IOException(
          "The keyed state of checkpoint "
              + checkpointId
              + " is no longer kept: a later checkpoint completed before it was written");
    }
    return Map.of();
  }

  @Override
  public void notifyCheckpointComplete(long checkpointId) {
    writes.keySet().removeIf(id -> id < checkpointId);
  }

  /**
   * Nothing to release: the heap is the garbage collector's. A write in flight goes on reading only
   * what it froze, which nothing changes any more, and nothing waits for it.
   */
  @Override
  public void close() {}

  private void restoreKeyGroup(int keyGroup, byte[] bytes) {
    if (!range.contains(keyGroup)) {
      return;
    }
    if (KeyGroupInFile.isReference(bytes)) {
      bytes = KeyGroupInFile.fromBytes(bytes).read(restoredFrom, keyGroup);
    }
    Map<String, Object> states;
    if (HeapKeyGroupFormat.isCompact(bytes)) {
      states = KeyGroupReader.read(keyGroup, bytes);
    } else if (HeapKeyGroupFormat.isJavaSerialized(bytes)) {
      states = EARLIER_FORMAT.deserialize(bytes);
    } else {
      throw new IllegalStateException(
          "The restored keyed state of key group "
              + keyGroup
              + " was not written by the heap state backend; restore it with the backend that"
              + " wrote it (--state-backend rocksdb)");
    }
    int index = keyGroup - range.start();
    states.forEach(
        (name, entries) -> {
          if (entries instanceof TypedKeyGroup typed) {
            typedStates.restore(name, index, typed);
          } else {
            @SuppressWarnings("unchecked")
            Map<Object, Object> objects = (Map<Object, Object>) entries;
            table(name).group(index).putAll(objects);
          }
        });
  }
}
