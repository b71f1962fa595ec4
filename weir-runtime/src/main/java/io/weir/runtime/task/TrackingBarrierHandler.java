package io.weir.runtime.task;

import io.weir.runtime.exchange.Batch;
import io.weir.runtime.exchange.StreamEvent.CheckpointBarrier;

/**
 * At-least-once: never blocks a channel; snapshots when the last channel delivered barrier N. The
 * snapshot may include records that came after N on faster channels, which a restore replays.
 */
final class TrackingBarrierHandler implements BarrierHandler {
  private final int channels;
  private long currentCheckpoint = -1;
  private int arrived;

  TrackingBarrierHandler(int channels) {
    this.channels = channels;
  }

  @Override
  public boolean isBlocked(int channel) {
    return false;
  }

  @Override
  public void hold(Batch batch) {
    throw new IllegalStateException("At-least-once mode never blocks a channel");
  }

  @Override
  public Batch nextReleased() {
    return null;
  }

  @Override
  public void onBarrier(int channel, CheckpointBarrier barrier, Actions actions) throws Exception {
    long id = barrier.checkpointId();
    if (id < currentCheckpoint) {
      return;
    }
    if (id > currentCheckpoint) {
      if (arrived > 0) {
        actions.abortCheckpoint(currentCheckpoint, "barrier " + id + " overtook it");
      }
      currentCheckpoint = id;
      arrived = 0;
    }
    if (++arrived == channels) {
      arrived = 0;
      actions.triggerCheckpoint(barrier);
    }
  }
}
