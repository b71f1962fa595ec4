package io.weir.runtime.execution;

import io.weir.runtime.checkpoint.CheckpointMetadata;
import io.weir.runtime.checkpoint.CheckpointStorage;
import io.weir.runtime.checkpoint.CompletedCheckpoint;
import io.weir.runtime.checkpoint.OperatorInfo;
import io.weir.runtime.checkpoint.OperatorState;
import io.weir.runtime.checkpoint.StateHandle;
import io.weir.runtime.state.OperatorSubtaskState;
import io.weir.runtime.state.TaskSnapshot;
import java.util.HashMap;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;
import java.util.concurrent.ConcurrentHashMap;

/** Checkpoints kept in memory; to be replaced by the storage package. */
final class InterimMemoryStorage implements CheckpointStorage {
  private final Map<String, TaskSnapshot> snapshots = new ConcurrentHashMap<>();
  private final TreeMap<Long, CompletedCheckpoint> completed = new TreeMap<>();
  private final int retained;

  InterimMemoryStorage(int retained) {
    this.retained = retained;
  }

  @Override
  public StateHandle storeTaskState(
      long checkpointId, String taskId, int subtaskIndex, TaskSnapshot state) {
    String name = checkpointId + "/" + taskId + "-" + subtaskIndex;
    snapshots.put(name, state);
    return new StateHandle(name, 0, 0);
  }

  @Override
  public synchronized CompletedCheckpoint complete(CheckpointMetadata metadata) {
    Map<String, Map<Integer, OperatorSubtaskState>> byOperator = new HashMap<>();
    for (var handle : metadata.subtaskStates()) {
      TaskSnapshot snapshot = snapshots.remove(handle.handle().file());
      snapshot
          .operators()
          .forEach(
              (uid, state) ->
                  byOperator
                      .computeIfAbsent(uid, k -> new HashMap<>())
                      .put(handle.subtaskIndex(), state));
    }
    Map<String, OperatorState> operators = new HashMap<>();
    for (OperatorInfo info : metadata.operators()) {
      operators.put(
          info.uid(), new OperatorState(info, byOperator.getOrDefault(info.uid(), Map.of())));
    }
    CompletedCheckpoint checkpoint =
        new CompletedCheckpoint(
            metadata.checkpointId(),
            metadata.timestamp(),
            metadata.jobName(),
            false,
            null,
            operators);
    completed.put(metadata.checkpointId(), checkpoint);
    while (completed.size() > retained) {
      completed.pollFirstEntry();
    }
    return checkpoint;
  }

  @Override
  public void discard(long checkpointId) {
    snapshots.keySet().removeIf(name -> name.startsWith(checkpointId + "/"));
  }

  @Override
  public synchronized Optional<CompletedCheckpoint> latest(RestoreListener listener) {
    return completed.isEmpty() ? Optional.empty() : Optional.of(completed.lastEntry().getValue());
  }

  @Override
  public String describe() {
    return "memory";
  }
}
