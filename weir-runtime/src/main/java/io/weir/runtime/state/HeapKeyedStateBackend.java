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
import io.weir.runtime.state.TypedStateCodec.Shape;
import java.io.IOException;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Optional;

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
  private final Map<String, StateTable> tables = new LinkedHashMap<>();
  private final TypedStates typedStates;
  private final HeapSnapshotFiles snapshotFiles;
  private final Path restoredFrom;
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
  public StateTable table(String name) {
    return tables.computeIfAbsent(name, n -> new StateTable(this, range.size()));
  }

  /**
   * The heap keeps the table's values as objects. A snapshot writes them with {@code
   * valueSerializer} when it is an {@link io.weir.api.types.EvolvingSerializer}, as a typed state's
   * (a checkpoint of many keys writes far fewer objects so than by Java serialization of each
   * value), and by Java serialization otherwise.
   */
  @Override
  public StateTable table(String name, StateSerializer<Object> valueSerializer) {
    return declared(name, TypedStateCodec.maybeOf(Shape.VALUE, valueSerializer));
  }

  /** Timers in a table of the state: see {@link HeapTimerQueue}. */
  @Override
  public KeyedTimerQueue timerQueue(String name) {
    return new HeapTimerQueue(this, table(name));
  }

  /** The table of a state a descriptor declares; restored typed values are read in now. */
  private StateTable declared(String name, TypedStateCodec codec) {
    StateTable table = table(name);
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

  Object get(StateTable table) {
    return table.group(currentKeyGroupIndex).get(currentKey);
  }

  void put(StateTable table, Object value) {
    if (currentKey == null) {
      throw new IllegalStateException("Keyed state is used outside of a keyed context");
    }
    if (value == null) {
      table.group(currentKeyGroupIndex).remove(currentKey);
    } else {
      table.group(currentKeyGroupIndex).put(currentKey, value);
    }
  }

  /**
   * Writes every non-empty key group now, on the task thread, in the {@link HeapKeyGroupFormat}:
   * into a file of the checkpoint, through a buffer, when the storage has files (the returned bytes
   * then name where each key group is), else into bytes. A file that cannot be written declines the
   * checkpoint.
   */
  @Override
  public Map<Integer, byte[]> snapshot(long checkpointId) {
    try {
      Optional<Map<Integer, byte[]>> inFile =
          snapshotFiles.write(checkpointId, this::writeKeyGroups);
      if (inFile.isPresent()) {
        return inFile.get();
      }
      Map<Integer, byte[]> keyGroups = new HashMap<>();
      writeKeyGroups((keyGroup, writer) -> keyGroups.put(keyGroup, writer.takeKeyGroup()));
      return keyGroups;
    } catch (IOException e) {
      // Writing only reads the state, so the task can go on as it is: the checkpoint is declined,
      // as when the storage cannot write it later (a full disk, a directory an abort removed).
      throw new CheckpointDeclinedException(
          "Cannot write the keyed state of checkpoint " + checkpointId + ": " + e);
    }
  }

  /** Forces the file of the checkpoint to disk, if its snapshot wrote one. */
  @Override
  public void materializeSnapshot(long checkpointId) throws IOException {
    snapshotFiles.materialize(checkpointId);
  }

  @Override
  public void notifyCheckpointComplete(long checkpointId) {
    snapshotFiles.completed(checkpointId);
  }

  private void writeKeyGroups(HeapSnapshotFiles.KeyGroupSink sink) throws IOException {
    KeyGroupWriter writer = new KeyGroupWriter();
    for (int index = 0; index < range.size(); index++) {
      for (Map.Entry<String, StateTable> entry : tables.entrySet()) {
        String name = entry.getKey();
        HashMap<Object, Object> group = entry.getValue().group(index);
        if (group.isEmpty()) {
          continue;
        }
        if (typedStates.isTyped(name)) {
          typedStates.snapshot(name, group, writer);
        } else {
          writer.objectState(name, group);
        }
      }
      typedStates.snapshotUndeclared(index, writer);
      if (!writer.isEmpty()) {
        sink.keyGroupWritten(range.start() + index, writer);
      }
    }
  }

  /** Nothing to release: the heap is the garbage collector's. */
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

  /** The entries of one state, per key group. */
  public static final class StateTable implements KeyedTable {
    private final HeapKeyedStateBackend backend;
    private final HashMap<Object, Object>[] groups;

    @SuppressWarnings("unchecked")
    StateTable(HeapKeyedStateBackend backend, int keyGroups) {
      this.backend = backend;
      groups = new HashMap[keyGroups];
      for (int i = 0; i < keyGroups; i++) {
        groups[i] = new HashMap<>();
      }
    }

    HashMap<Object, Object> group(int index) {
      return groups[index];
    }

    @Override
    public Object get() {
      return backend.get(this);
    }

    @Override
    public void put(Object value) {
      backend.put(this, value);
    }

    @Override
    public boolean keepsValueObjects() {
      return true;
    }

    @Override
    public void forEach(java.util.function.BiConsumer<Object, Object> action) {
      for (HashMap<Object, Object> group : groups) {
        group.forEach(action);
      }
    }
  }
}
