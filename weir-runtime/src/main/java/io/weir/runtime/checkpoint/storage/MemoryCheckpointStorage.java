package io.weir.runtime.checkpoint.storage;

import io.weir.runtime.checkpoint.CheckpointMetadata;
import io.weir.runtime.checkpoint.CheckpointMetadata.SubtaskStateHandle;
import io.weir.runtime.checkpoint.CheckpointStorage;
import io.weir.runtime.checkpoint.CompletedCheckpoint;
import io.weir.runtime.checkpoint.StateHandle;
import io.weir.runtime.state.TaskSnapshot;
import java.io.IOException;
import java.util.HashMap;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.NavigableMap;
import java.util.Optional;
import java.util.TreeMap;
import java.util.zip.CRC32;

/**
 * Checkpoints kept in this JVM, for jobs without a checkpoint directory: a failover inside the
 * process restores from them; a crash of the process loses them.
 *
 * <p>Same contract as {@link FileCheckpointStorage}. Task state is kept serialized, so a snapshot
 * is isolated from later changes of the objects it was taken from and a restore decodes exactly
 * what a file would hold. Thread safe: every method is synchronized.
 */
public final class MemoryCheckpointStorage implements CheckpointStorage {
  private static final String LOCATION = "memory";

  private final int retained;
  private final Map<Long, Map<StateKey, byte[]>> pendingStates = new HashMap<>();
  private final NavigableMap<Long, CompletedCheckpoint> completed = new TreeMap<>();

  /**
   * @param retained how many completed checkpoints to keep, at least 1
   */
  public MemoryCheckpointStorage(int retained) {
    if (retained < 1) {
      throw new IllegalArgumentException("retained checkpoints must be at least 1: " + retained);
    }
    this.retained = retained;
  }

  @Override
  public synchronized StateHandle storeTaskState(
      long checkpointId, String taskId, int subtaskIndex, TaskSnapshot state) {
    byte[] bytes = TaskSnapshotFormat.toBytes(state);
    pendingStates
        .computeIfAbsent(checkpointId, id -> new HashMap<>())
        .put(new StateKey(taskId, subtaskIndex), bytes);
    CRC32 crc = new CRC32();
    crc.update(bytes);
    return new StateHandle(
        CheckpointLayout.stateFileName(taskId, subtaskIndex), bytes.length, crc.getValue());
  }

  @Override
  public synchronized CompletedCheckpoint complete(CheckpointMetadata metadata) throws IOException {
    Map<StateKey, byte[]> states = pendingStates.getOrDefault(metadata.checkpointId(), Map.of());
    CompletedCheckpoint checkpoint =
        CheckpointAssembler.assemble(metadata, null, LOCATION, handle -> decode(states, handle));
    pendingStates.remove(metadata.checkpointId());
    completed.put(checkpoint.checkpointId(), checkpoint);
    prune();
    return checkpoint;
  }

  @Override
  public synchronized void discard(long checkpointId) {
    pendingStates.remove(checkpointId);
  }

  @Override
  public synchronized Optional<CompletedCheckpoint> latest(RestoreListener listener) {
    return completed.isEmpty() ? Optional.empty() : Optional.of(completed.lastEntry().getValue());
  }

  /** The ids of the completed checkpoints and savepoints still kept, oldest first. */
  public synchronized List<Long> retainedCheckpointIds() {
    return List.copyOf(completed.keySet());
  }

  @Override
  public String describe() {
    return LOCATION;
  }

  private static TaskSnapshot decode(Map<StateKey, byte[]> states, SubtaskStateHandle handle)
      throws InvalidCheckpointException {
    byte[] bytes = states.get(new StateKey(handle.taskId(), handle.subtaskIndex()));
    if (bytes == null) {
      throw new InvalidCheckpointException(
          LOCATION,
          "no state stored for task " + handle.taskId() + " subtask " + handle.subtaskIndex(),
          null);
    }
    try {
      return TaskSnapshotFormat.read(bytes);
    } catch (IOException e) {
      throw new InvalidCheckpointException(LOCATION, e.getMessage(), e);
    }
  }

  /** Keeps the newest {@code retained} checkpoints and every savepoint; forgets older pending. */
  private void prune() {
    long newest = completed.lastKey();
    pendingStates.keySet().removeIf(id -> id < newest);
    int kept = 0;
    Iterator<CompletedCheckpoint> newestFirst = completed.descendingMap().values().iterator();
    while (newestFirst.hasNext()) {
      CompletedCheckpoint checkpoint = newestFirst.next();
      if (checkpoint.savepoint()) {
        continue;
      }
      if (kept < retained) {
        kept++;
      } else {
        newestFirst.remove();
      }
    }
  }

  private record StateKey(String taskId, int subtaskIndex) {}
}
