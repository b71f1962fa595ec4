package io.weir.runtime.checkpoint;

import java.nio.file.Path;
import java.util.Map;

/**
 * A checkpoint that every task acknowledged and whose metadata is stored.
 *
 * @param location its directory, or null for a checkpoint kept in memory
 * @param operators state by operator uid; for a checkpoint in a directory, read back from its files
 *     each time it is asked for rather than kept (a restore asks once per subtask)
 * @param enumeratorStates what each source's split enumerator kept, by operator uid
 */
public record CompletedCheckpoint(
    long checkpointId,
    long timestamp,
    String jobName,
    boolean savepoint,
    Path location,
    Map<String, OperatorState> operators,
    Map<String, byte[]> enumeratorStates) {

  public CompletedCheckpoint {
    enumeratorStates = enumeratorStates == null ? Map.of() : Map.copyOf(enumeratorStates);
  }

  /** A checkpoint without enumerator states. */
  public CompletedCheckpoint(
      long checkpointId,
      long timestamp,
      String jobName,
      boolean savepoint,
      Path location,
      Map<String, OperatorState> operators) {
    this(checkpointId, timestamp, jobName, savepoint, location, operators, Map.of());
  }
}
