package io.weir.runtime.task;

import io.weir.runtime.exchange.Batch;
import io.weir.runtime.exchange.StreamEvent.CheckpointBarrier;
import java.util.ArrayDeque;

/**
 * Exactly-once: a channel that delivered barrier N is blocked, its records held, until every
 * channel delivered N; then the task snapshots and the held records are processed. A newer barrier
 * aborts an alignment still in progress. Records are held in memory rather than left in the gate,
 * so that a blocked channel never stops its producer (which may feed the channels this task still
 * waits on).
 */
final class AligningBarrierHandler implements BarrierHandler {
  private final boolean[] blocked;
  private final ArrayDeque<Batch>[] held;
  private final ArrayDeque<Batch> released = new ArrayDeque<>();
  private long currentCheckpoint = -1;
  private int arrived;

  @SuppressWarnings("unchecked")
  AligningBarrierHandler(int channels) {
    blocked = new boolean[channels];
    held = new ArrayDeque[channels];
    for (int i = 0; i < channels; i++) {
      held[i] = new ArrayDeque<>();
    }
  }

  @Override
  public boolean isBlocked(int channel) {
    return blocked[channel];
  }

  @Override
  public void hold(Batch batch) {
    held[batch.channel()].add(batch);
  }

  @Override
  public Batch nextReleased() {
    return released.poll();
  }

  @Override
  public void onBarrier(int channel, CheckpointBarrier barrier, Actions actions) throws Exception {
    long id = barrier.checkpointId();
    if (id < currentCheckpoint) {
      return;
    }
    if (id > currentCheckpoint) {
      if (arrived > 0) {
        long aborted = currentCheckpoint;
        releaseAll();
        actions.abortCheckpoint(aborted, "barrier " + id + " arrived before alignment finished");
      }
      currentCheckpoint = id;
      arrived = 0;
    }
    if (!blocked[channel]) {
      blocked[channel] = true;
      arrived++;
    }
    if (arrived == blocked.length) {
      releaseAll();
      arrived = 0;
      actions.triggerCheckpoint(barrier);
    }
  }

  private void releaseAll() {
    for (int channel = 0; channel < blocked.length; channel++) {
      blocked[channel] = false;
      released.addAll(held[channel]);
      held[channel].clear();
    }
  }
}
