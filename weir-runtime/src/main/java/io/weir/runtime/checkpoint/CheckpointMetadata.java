package io.weir.runtime.checkpoint;

import java.util.Base64;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * What the {@code _metadata} file of a checkpoint says.
 *
 * @param leaseEpoch the epoch of the lease on the job's checkpoint directory under which the
 *     checkpoint was written; 0 when no lease was held (checkpoints in memory, a highly available
 *     job manager fenced by its ZooKeeper term, metadata written before leases existed)
 * @param enumeratorStates what each source's split enumerator kept, by the source's operator uid,
 *     Base64 of its Java serialization; empty for a job without enumerators (and in metadata
 *     written before they existed)
 */
public record CheckpointMetadata(
    long checkpointId,
    long timestamp,
    String jobName,
    boolean savepoint,
    List<OperatorInfo> operators,
    List<SubtaskStateHandle> subtaskStates,
    long leaseEpoch,
    Map<String, String> enumeratorStates) {

  public CheckpointMetadata {
    enumeratorStates = enumeratorStates == null ? Map.of() : new TreeMap<>(enumeratorStates);
  }

  /** Metadata without enumerator states. */
  public CheckpointMetadata(
      long checkpointId,
      long timestamp,
      String jobName,
      boolean savepoint,
      List<OperatorInfo> operators,
      List<SubtaskStateHandle> subtaskStates,
      long leaseEpoch) {
    this(
        checkpointId,
        timestamp,
        jobName,
        savepoint,
        operators,
        subtaskStates,
        leaseEpoch,
        Map.of());
  }

  /** This metadata, written under the lease of {@code epoch}. */
  public CheckpointMetadata withLeaseEpoch(long epoch) {
    return new CheckpointMetadata(
        checkpointId,
        timestamp,
        jobName,
        savepoint,
        operators,
        subtaskStates,
        epoch,
        enumeratorStates);
  }

  /** This metadata, marked as a savepoint's. */
  public CheckpointMetadata asSavepoint() {
    return new CheckpointMetadata(
        checkpointId,
        timestamp,
        jobName,
        true,
        operators,
        subtaskStates,
        leaseEpoch,
        enumeratorStates);
  }

  /** The enumerator states as bytes, by operator uid. */
  public Map<String, byte[]> enumeratorStateBytes() {
    Map<String, byte[]> bytes = new TreeMap<>();
    enumeratorStates.forEach((uid, text) -> bytes.put(uid, Base64.getDecoder().decode(text)));
    return bytes;
  }

  /** Encodes enumerator states for {@link #enumeratorStates}. */
  public static Map<String, String> encodeEnumeratorStates(Map<String, byte[]> states) {
    Map<String, String> encoded = new TreeMap<>();
    states.forEach((uid, bytes) -> encoded.put(uid, Base64.getEncoder().encodeToString(bytes)));
    return encoded;
  }

  /** The file holding one subtask's state: its task (chain) id and subtask index. */
  public record SubtaskStateHandle(String taskId, int subtaskIndex, StateHandle handle) {}
}
