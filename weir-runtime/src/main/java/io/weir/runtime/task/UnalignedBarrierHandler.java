package io.weir.runtime.task;

import io.weir.runtime.exchange.Batch;
import io.weir.runtime.exchange.InFlightRecords;
import io.weir.runtime.exchange.InputGate;
import io.weir.runtime.exchange.StreamEvent.CheckpointBarrier;
import java.time.Clock;
import java.time.Duration;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * Exactly-once over a gate whose barriers overtake: a checkpoint is aligned as usual until its
 * alignment has waited the aligned timeout (zero: at once), then it becomes unaligned — the task
 * snapshots at once, forwards the barrier, and stores with its state the records still in flight:
 * on each channel, those the task took and did not process yet, and those queued or yet to arrive
 * before that channel's barrier. The checkpoint is acknowledged when every channel's barrier was
 * announced. A newer barrier aborts a checkpoint in progress.
 */
final class UnalignedBarrierHandler implements BarrierHandler {
  /** IDLE -> ALIGNING -> IDLE (aligned) or CAPTURING -> IDLE; a newer barrier aborts either. */
  private enum Phase {
    IDLE,
    ALIGNING,
    CAPTURING
  }

  private final InputGate gate;
  private final InFlightRecords records;
  private final Duration alignedTimeout;
  private final Clock clock;
  private final int channels;
  // ALIGNING: the channel delivered the barrier in line; its later batches are held.
  private final boolean[] blocked;
  private final ArrayDeque<Batch>[] held;
  private final ArrayDeque<Batch> released = new ArrayDeque<>();
  // The number of the batch that carried the channel's barrier, 0 while not announced.
  private final long[] barrierSequence;
  // CAPTURING: every record in flight on the channel is captured.
  private final boolean[] captured;
  // CAPTURING: the channel's batches numbered up to this were processed before the snapshot or
  // are captured.
  private final long[] capturedUpTo;
  private Map<String, List<byte[]>> inFlight = new HashMap<>();
  private long inFlightBytes;
  private Phase phase = Phase.IDLE;
  private CheckpointBarrier current;
  private long alignmentStartMillis;
  private int arrived;
  private int capturedChannels;

  @SuppressWarnings("unchecked")
  UnalignedBarrierHandler(
      InputGate gate, InFlightRecords records, Duration alignedTimeout, Clock clock) {
    this.gate = gate;
    this.records = records;
    this.alignedTimeout = alignedTimeout;
    this.clock = clock;
    this.channels = gate.channels();
    this.blocked = new boolean[channels];
    this.held = new ArrayDeque[channels];
    for (int i = 0; i < channels; i++) {
      held[i] = new ArrayDeque<>();
    }
    this.barrierSequence = new long[channels];
    this.captured = new boolean[channels];
    this.capturedUpTo = new long[channels];
  }

  @Override
  public boolean isBlocked(int channel) {
    return blocked[channel];
  }

  @Override
  public void hold(Batch batch) {
    if (blocked[batch.channel()]) {
      held[batch.channel()].add(batch);
    } else {
      released.addFirst(batch);
    }
  }

  @Override
  public Batch nextReleased() {
    return released.poll();
  }

  @Override
  public void onAnnouncement(int channel, CheckpointBarrier barrier, long sequence, Actions actions)
      throws Exception {
    if (!maybeBegin(barrier, actions)) {
      return;
    }
    barrierSequence[channel] = sequence;
    if (phase == Phase.CAPTURING && !captured[channel]) {
      captureQueued(channel, sequence);
      markCaptured(channel);
      maybeComplete(actions);
    } else {
      maybeTimeOutAlignment(actions);
    }
  }

  @Override
  public void onBarrier(int channel, CheckpointBarrier barrier, Actions actions) throws Exception {
    if (!maybeBegin(barrier, actions)) {
      return;
    }
    if (phase == Phase.CAPTURING) {
      // Every batch of the channel before this one was taken, and captured when taken.
      if (!captured[channel]) {
        markCaptured(channel);
        maybeComplete(actions);
      }
      return;
    }
    if (!blocked[channel]) {
      blocked[channel] = true;
      arrived++;
    }
    if (arrived == channels) {
      releaseHeld();
      phase = Phase.IDLE;
      actions.triggerCheckpoint(barrier);
    }
  }

  @Override
  public void onTaken(Batch batch) {
    int channel = batch.channel();
    if (phase != Phase.CAPTURING
        || captured[channel]
        || batch.sequence() <= capturedUpTo[channel]) {
      return;
    }
    capture(batch);
    capturedUpTo[channel] = batch.sequence();
  }

  @Override
  public void maybeTimeOutAlignment(Actions actions) throws Exception {
    if (phase == Phase.ALIGNING
        && clock.millis() - alignmentStartMillis >= alignedTimeout.toMillis()) {
      switchToUnaligned(actions);
    }
  }

  /**
   * Starts the barrier's checkpoint if it is newer than the current one (aborting that one if it is
   * in progress); false if the barrier belongs to an older or an already taken checkpoint.
   */
  private boolean maybeBegin(CheckpointBarrier barrier, Actions actions) throws Exception {
    long id = barrier.checkpointId();
    long currentId = current == null ? -1 : current.checkpointId();
    if (id < currentId) {
      return false;
    }
    if (id == currentId) {
      return phase != Phase.IDLE;
    }
    if (phase != Phase.IDLE) {
      releaseHeld();
      phase = Phase.IDLE;
      actions.abortCheckpoint(currentId, "barrier " + id + " arrived before it was complete");
    }
    current = barrier;
    Arrays.fill(barrierSequence, 0);
    Arrays.fill(captured, false);
    Arrays.fill(capturedUpTo, 0);
    inFlight = new HashMap<>();
    inFlightBytes = 0;
    arrived = 0;
    capturedChannels = 0;
    alignmentStartMillis = clock.millis();
    phase = Phase.ALIGNING;
    return true;
  }

  /**
   * Snapshots now. The blocked channels delivered their barrier: nothing of theirs is in flight and
   * their held batches come after it. Of every other channel, the batches taken and not processed
   * yet (the rest of a batch the task stopped for this barrier's announcement first) and the queued
   * batches up to the one with its barrier are in flight, and so are those it sends until its
   * barrier is announced. A channel's barrier may be queued while its announcement still waits
   * behind the one that started this switch: the batches queued after that barrier are not in
   * flight, as its sender emits them again after a restore.
   */
  private void switchToUnaligned(Actions actions) throws Exception {
    if (!actions.snapshotAheadOfInFlight(current)) {
      releaseHeld();
      phase = Phase.IDLE;
      return;
    }
    phase = Phase.CAPTURING;
    List<Batch> queued = new ArrayList<>();
    long lastSequence = copyUnprocessed(queued);
    for (Batch batch : queued) {
      int channel = batch.channel();
      long barrierAt = barrierSequence[channel];
      if (blocked[channel] || (barrierAt != 0 && batch.sequence() > barrierAt)) {
        continue;
      }
      capture(batch);
      if (endsWithCurrentBarrier(batch)) {
        barrierSequence[channel] = batch.sequence();
      }
    }
    for (int channel = 0; channel < channels; channel++) {
      if (blocked[channel] || barrierSequence[channel] != 0) {
        markCaptured(channel);
      } else {
        capturedUpTo[channel] = lastSequence;
      }
    }
    releaseHeld();
    maybeComplete(actions);
  }

  private boolean endsWithCurrentBarrier(Batch batch) {
    return batch.value(batch.size() - 1) instanceof CheckpointBarrier barrier
        && barrier.checkpointId() >= current.checkpointId();
  }

  /** Captures the channel's queued batches not captured yet, up to the one with its barrier. */
  private void captureQueued(int channel, long barrierAt) {
    List<Batch> queued = new ArrayList<>();
    copyUnprocessed(queued);
    for (Batch batch : queued) {
      if (batch.channel() == channel
          && batch.sequence() > capturedUpTo[channel]
          && batch.sequence() <= barrierAt) {
        capture(batch);
      }
    }
  }

  /**
   * Copies the batches taken from the gate and not processed yet (released, first of all the rest
   * of a batch the task stopped for an announcement), then those queued in the gate, in the order
   * the task will process them; returns the number of the last batch the gate received.
   */
  private long copyUnprocessed(List<Batch> into) {
    into.addAll(released);
    return gate.copyQueued(into);
  }

  private void capture(Batch batch) {
    List<byte[]> elements =
        inFlight.computeIfAbsent(records.stateName(batch.channel()), name -> new ArrayList<>());
    inFlightBytes += records.encode(batch, elements);
  }

  private void markCaptured(int channel) {
    captured[channel] = true;
    capturedChannels++;
  }

  private void maybeComplete(Actions actions) {
    if (phase == Phase.CAPTURING && capturedChannels == channels) {
      phase = Phase.IDLE;
      actions.completeWithInFlight(current.checkpointId(), inFlight, inFlightBytes);
      inFlight = new HashMap<>();
    }
  }

  private void releaseHeld() {
    for (int channel = 0; channel < channels; channel++) {
      blocked[channel] = false;
      released.addAll(held[channel]);
      held[channel].clear();
    }
  }
}
