package io.weir.runtime.checkpoint;

import java.util.List;

/**
 * What happened to one checkpoint, for operators asking why a job is slow or stuck: when it was
 * triggered, how it ended, how long it took, how much state it wrote, and when each subtask
 * acknowledged it (the slowest subtask is usually the answer).
 *
 * @param triggerMillis wall-clock time of the trigger
 * @param durationMillis trigger to completion or abort; until then, trigger to the latest ack
 * @param sizeBytes bytes of state written by the subtasks that acknowledged
 * @param failure why the checkpoint was aborted, or null
 * @param metadataMillis wall-clock time its {@code _metadata} was stored, or 0
 * @param notifiedMillis wall-clock time the tasks were told it completed, or 0
 */
public record CheckpointStats(
    long checkpointId,
    boolean savepoint,
    Status status,
    long triggerMillis,
    long durationMillis,
    long sizeBytes,
    List<Ack> acks,
    String failure,
    long metadataMillis,
    long notifiedMillis) {

  public enum Status {
    IN_PROGRESS,
    COMPLETED,
    ABORTED
  }

  /** One subtask's acknowledgement, {@code afterMillis} after the trigger. */
  public record Ack(String taskId, int subtaskIndex, long afterMillis, long sizeBytes) {}

  public CheckpointStats {
    acks = List.copyOf(acks);
  }
}
