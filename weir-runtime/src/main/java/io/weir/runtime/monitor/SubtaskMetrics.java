package io.weir.runtime.monitor;

import java.time.Clock;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.List;

/**
 * What one subtask records for observers beyond its operators' record counts and its record
 * writers' blocked time: its current watermark, and for the last few checkpoints when its first
 * barrier arrived, how long the alignment took and when each chained operator was told of the
 * completion (for a sink: its commit).
 *
 * <p>Written by the task's thread only, at batch or checkpoint rate, never per record; read by any
 * thread. Plain volatile fields for the counters, this object's lock for the short checkpoint
 * traces.
 */
public final class SubtaskMetrics {
  private static final int TRACED_CHECKPOINTS = 16;

  private final Clock clock;
  private final ArrayDeque<Trace> traces = new ArrayDeque<>();
  private volatile long watermark = Long.MIN_VALUE;
  private long maxInFlightBytes;

  public SubtaskMetrics(Clock clock) {
    this.clock = clock;
  }

  /** The task forwarded or emitted this watermark. */
  public void watermark(long timestamp) {
    watermark = timestamp;
  }

  public long watermark() {
    return watermark;
  }

  /** The first barrier of the checkpoint reached the task: its alignment starts. */
  public synchronized void barrierArrived(long checkpointId) {
    traceOf(checkpointId);
  }

  /** Every barrier of the checkpoint arrived: the task snapshots now. */
  public synchronized void aligned(long checkpointId) {
    Trace trace = traceOf(checkpointId);
    trace.alignedMillis = clock.millis();
  }

  /** An unaligned checkpoint stored this many bytes of records in flight with the task's state. */
  public synchronized void inFlightStored(long bytes) {
    maxInFlightBytes = Math.max(maxInFlightBytes, bytes);
  }

  /** The most bytes of records in flight one checkpoint of this subtask stored. */
  public synchronized long maxInFlightBytes() {
    return maxInFlightBytes;
  }

  /**
   * One chained operator was told the checkpoint completed, from {@code startMillis} until now.
   *
   * @param failure what its notification threw, or null
   */
  public synchronized void notified(
      long checkpointId, String operatorUid, long startMillis, Throwable failure) {
    traceOf(checkpointId)
        .notifications
        .add(
            new OperatorNotification(
                operatorUid,
                startMillis,
                clock.millis(),
                failure == null ? null : String.valueOf(failure.getMessage())));
  }

  public long nowMillis() {
    return clock.millis();
  }

  /** The traced checkpoints, oldest first. */
  public synchronized List<SubtaskCheckpointTrace> traces() {
    List<SubtaskCheckpointTrace> result = new ArrayList<>(traces.size());
    for (Trace trace : traces) {
      result.add(
          new SubtaskCheckpointTrace(
              trace.checkpointId,
              trace.barrierMillis,
              trace.alignedMillis,
              List.copyOf(trace.notifications)));
    }
    return result;
  }

  private Trace traceOf(long checkpointId) {
    for (Trace trace : traces) {
      if (trace.checkpointId == checkpointId) {
        return trace;
      }
    }
    Trace trace = new Trace(checkpointId, clock.millis());
    traces.addLast(trace);
    while (traces.size() > TRACED_CHECKPOINTS) {
      traces.removeFirst();
    }
    return trace;
  }

  private static final class Trace {
    final long checkpointId;
    final long barrierMillis;
    final List<OperatorNotification> notifications = new ArrayList<>();
    long alignedMillis;

    Trace(long checkpointId, long barrierMillis) {
      this.checkpointId = checkpointId;
      this.barrierMillis = barrierMillis;
    }
  }
}
