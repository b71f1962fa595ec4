package io.weir.runtime.checkpoint;

import java.util.List;

/**
 * What the {@code _metadata} file of a checkpoint says.
 *
 * @param leaseEpoch the epoch of the lease on the job's checkpoint directory under which the
 *     checkpoint was written; 0 when no lease was held (checkpoints in memory, a highly available
 *     job manager fenced by its ZooKeeper term, metadata written before leases existed)
 */
public record CheckpointMetadata(
    long checkpointId,
    long timestamp,
    String jobName,
    boolean savepoint,
    List<OperatorInfo> operators,
    List<SubtaskStateHandle> subtaskStates,
    long leaseEpoch) {

  /** This metadata, written under the lease of {@code epoch}. */
  public CheckpointMetadata withLeaseEpoch(long epoch) {
    return new CheckpointMetadata(
        checkpointId, timestamp, jobName, savepoint, operators, subtaskStates, epoch);
  }

  /** The file holding one subtask's state: its task (chain) id and subtask index. */
  public record SubtaskStateHandle(String taskId, int subtaskIndex, StateHandle handle) {}
}
