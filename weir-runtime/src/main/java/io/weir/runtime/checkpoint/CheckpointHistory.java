package io.weir.runtime.checkpoint;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The recent checkpoints of a job, across its attempts (a job keeps one history while each attempt
 * has its own coordinator). Keeps the newest {@code capacity} entries. Thread safe.
 */
public final class CheckpointHistory {
  private static final int DEFAULT_CAPACITY = 100;

  private final int capacity;
  private final LinkedHashMap<Long, Entry> entries = new LinkedHashMap<>();

  public CheckpointHistory() {
    this(DEFAULT_CAPACITY);
  }

  public CheckpointHistory(int capacity) {
    this.capacity = capacity;
  }

  private static final class Entry {
    final long checkpointId;
    final boolean savepoint;
    final long triggerMillis;
    final List<CheckpointStats.Ack> acks = new ArrayList<>();
    CheckpointStats.Status status = CheckpointStats.Status.IN_PROGRESS;
    long endMillis;
    long metadataMillis;
    long notifiedMillis;
    String failure;

    Entry(long checkpointId, boolean savepoint, long triggerMillis) {
      this.checkpointId = checkpointId;
      this.savepoint = savepoint;
      this.triggerMillis = triggerMillis;
    }

    CheckpointStats stats() {
      long size = acks.stream().mapToLong(CheckpointStats.Ack::sizeBytes).sum();
      long last = acks.stream().mapToLong(CheckpointStats.Ack::afterMillis).max().orElse(0);
      long duration =
          status == CheckpointStats.Status.IN_PROGRESS ? last : endMillis - triggerMillis;
      return new CheckpointStats(
          checkpointId,
          savepoint,
          status,
          triggerMillis,
          duration,
          size,
          acks,
          failure,
          metadataMillis,
          notifiedMillis);
    }
  }

  synchronized void triggered(long checkpointId, boolean savepoint, long nowMillis) {
    entries.put(checkpointId, new Entry(checkpointId, savepoint, nowMillis));
    while (entries.size() > capacity) {
      entries.remove(entries.keySet().iterator().next());
    }
  }

  synchronized void acknowledged(
      long checkpointId, String taskId, int subtaskIndex, long sizeBytes, long nowMillis) {
    Entry entry = entries.get(checkpointId);
    if (entry != null) {
      entry.acks.add(
          new CheckpointStats.Ack(
              taskId, subtaskIndex, nowMillis - entry.triggerMillis, sizeBytes));
    }
  }

  synchronized void completed(long checkpointId, long nowMillis) {
    end(checkpointId, CheckpointStats.Status.COMPLETED, nowMillis, null);
  }

  /** The checkpoint's {@code _metadata} is stored: the moment it became complete. */
  synchronized void metadataStored(long checkpointId, long nowMillis) {
    Entry entry = entries.get(checkpointId);
    if (entry != null) {
      entry.metadataMillis = nowMillis;
    }
  }

  /** Every task was sent the completion of the checkpoint. */
  synchronized void notified(long checkpointId, long nowMillis) {
    Entry entry = entries.get(checkpointId);
    if (entry != null) {
      entry.notifiedMillis = nowMillis;
    }
  }

  synchronized void aborted(long checkpointId, long nowMillis, String reason) {
    end(checkpointId, CheckpointStats.Status.ABORTED, nowMillis, reason);
  }

  private void end(long checkpointId, CheckpointStats.Status status, long now, String failure) {
    Entry entry = entries.get(checkpointId);
    if (entry != null && entry.status == CheckpointStats.Status.IN_PROGRESS) {
      entry.status = status;
      entry.endMillis = now;
      entry.failure = failure;
    }
  }

  /** The kept checkpoints, newest first. */
  public synchronized List<CheckpointStats> newestFirst() {
    List<CheckpointStats> stats = new ArrayList<>(entries.size());
    for (Map.Entry<Long, Entry> entry : entries.entrySet()) {
      stats.add(0, entry.getValue().stats());
    }
    return stats;
  }
}
