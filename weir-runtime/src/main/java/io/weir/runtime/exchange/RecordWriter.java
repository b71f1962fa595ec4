package io.weir.runtime.exchange;

import io.weir.runtime.exchange.StreamEvent.CheckpointBarrier;
import java.util.ArrayDeque;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * Sends the records of one subtask along one edge: picks the target subtask, fills a batch per
 * target (of at most the target's credit, {@link BatchReceiver#recordsPerBatch}) and hands a batch
 * over when it is full, when an event must follow the records in order, or when the buffer timeout
 * passed ({@link #flushAll}). Used only by the sending task's thread.
 *
 * <p>Where barriers overtake, a wait for room ends when a checkpoint comes to the task ({@link
 * #wakeBlockedSenders}): the writer then holds the batch, and every later one to that target, until
 * the task hands them over ({@link #maybeHandOverHeld}). A checkpoint barrier broadcast meanwhile
 * goes to that target first, alone (its gate takes it without room), and overtakes the batches
 * held: the task stores them with its snapshot ({@link #takeOvertaken}) and hands them over after
 * the barrier as before, so the receiver does not count them in flight and no batch passes the
 * gate's bound. Other events wait behind the held batches.
 */
public final class RecordWriter {
  /**
   * The batches of the target's credit that may be held for it: about what its gate holds, so that
   * what a barrier overtakes in an output is bounded as what it overtakes in a gate is. Beyond it,
   * the oldest held batch is handed over, waiting for room.
   */
  private static final int HELD_BATCHES_AT_MOST = 4;

  private final ChannelSelector selector;
  private final List<BatchReceiver> targets;
  private final int channelAtTarget;
  private final int batchSize;
  private final Batch[] pending;
  // By target, the batches it had no room for when a checkpoint came to the task, in order.
  private final ArrayDeque<Batch>[] held;
  private int heldTargets;
  private final long[] heldRecords;
  // By target, the batches the last checkpoint barrier overtook, until the task takes them.
  private Map<Integer, List<Batch>> overtaken = Map.of();
  // Written by the sending thread once per batch, read by observers: time spent waiting for room
  // at a target is this subtask's backpressure.
  private volatile long blockedNanos;

  /**
   * @param targets the input gates (or remote channels) of the downstream subtasks, by subtask
   *     index
   * @param channelAtTarget this sender's channel index in each target gate
   */
  public RecordWriter(
      ChannelSelector selector,
      List<? extends BatchReceiver> targets,
      int channelAtTarget,
      int batchSize) {
    this.selector = selector;
    this.targets = List.copyOf(targets);
    this.channelAtTarget = channelAtTarget;
    this.batchSize = batchSize;
    this.pending = new Batch[targets.size()];
    @SuppressWarnings("unchecked")
    ArrayDeque<Batch>[] byTarget = new ArrayDeque[targets.size()];
    for (int target = 0; target < byTarget.length; target++) {
      byTarget[target] = new ArrayDeque<>(2);
    }
    this.held = byTarget;
    this.heldRecords = new long[targets.size()];
  }

  public void emit(Object record, long timestamp) throws Exception {
    int target = selector.select(record);
    if (target == ChannelSelector.ALL_CHANNELS) {
      for (int each = 0; each < pending.length; each++) {
        add(each, record, timestamp);
      }
    } else {
      add(target, record, timestamp);
    }
  }

  private void add(int target, Object record, long timestamp) throws InterruptedException {
    Batch batch = pending[target];
    if (batch == null) {
      batch =
          new Batch(channelAtTarget, Math.min(batchSize, targets.get(target).recordsPerBatch()));
      pending[target] = batch;
    }
    batch.add(record, timestamp);
    if (batch.isFull()) {
      flush(target);
    }
  }

  /**
   * Sends the event to every target after the records before it, except that a checkpoint barrier
   * overtakes the batches held for a target ({@link #takeOvertaken}).
   */
  public void broadcast(StreamEvent event) throws InterruptedException {
    for (int target = 0; target < pending.length; target++) {
      Batch batch = pending[target];
      if (heldTargets > 0 && !held[target].isEmpty() && event instanceof CheckpointBarrier) {
        overtake(target, event);
        continue;
      }
      if (batch == null) {
        batch = new Batch(channelAtTarget, 1);
        pending[target] = batch;
      } else if (batch.isFull()) {
        // One hand-over for the records and the event: a gate whose barriers overtake takes a
        // barrier's batch without waiting for room, which a separate full batch would wait for.
        batch = batch.withRoomForOne();
        pending[target] = batch;
      }
      batch.add(event, Long.MIN_VALUE);
      flush(target);
    }
  }

  /** The barrier goes to the target alone, ahead of what is held for it and what is pending. */
  private void overtake(int target, StreamEvent barrier) throws InterruptedException {
    if (pending[target] != null) {
      hold(target, pending[target]);
      pending[target] = null;
    }
    if (overtaken.isEmpty()) {
      overtaken = new TreeMap<>();
    }
    overtaken.put(target, List.copyOf(held[target]));
    targets.get(target).put(Batch.ofEvent(channelAtTarget, barrier));
  }

  /**
   * The batches, by target, that the last checkpoint barrier overtook (empty if none): records the
   * task emitted before the barrier that reach their target after it. They are still handed over;
   * the task stores them with its snapshot so that a restore emits them again.
   */
  public Map<Integer, List<Batch>> takeOvertaken() {
    Map<Integer, List<Batch>> taken = overtaken;
    overtaken = Map.of();
    return taken;
  }

  /**
   * Sends a record that a restored checkpoint stored as overtaken to {@code target}, the target it
   * had, where the edge sends to every target (the others had their copy before the barrier).
   */
  public void emitTo(int target, Object record, long timestamp) throws InterruptedException {
    add(target, record, timestamp);
  }

  /** The number of downstream subtasks. */
  public int targetCount() {
    return targets.size();
  }

  public void flushAll() throws InterruptedException {
    for (int target = 0; target < pending.length; target++) {
      if (pending[target] != null) {
        flush(target);
      }
    }
  }

  private void flush(int target) throws InterruptedException {
    Batch batch = pending[target];
    pending[target] = null;
    long start = System.nanoTime();
    if (heldTargets > 0 && !held[target].isEmpty()) {
      hold(target, batch);
      maybeHandOverOldest(target);
    } else if (!targets.get(target).putUnlessWoken(batch)) {
      hold(target, batch);
      heldTargets++;
    }
    blockedNanos += System.nanoTime() - start;
  }

  private void hold(int target, Batch batch) {
    held[target].add(batch);
    heldRecords[target] += batch.size();
  }

  /** Hands the oldest held batches over, waiting for room, while more than the bound is held. */
  private void maybeHandOverOldest(int target) throws InterruptedException {
    BatchReceiver receiver = targets.get(target);
    long bound =
        (long) HELD_BATCHES_AT_MOST * Math.min(batchSize, Math.max(1, receiver.recordsPerBatch()));
    while (held[target].size() > 1 && heldRecords[target] > bound) {
      Batch oldest = held[target].poll();
      heldRecords[target] -= oldest.size();
      receiver.put(oldest);
    }
  }

  /** Whether batches are held for a target that had no room when a checkpoint came. */
  public boolean isHolding() {
    return heldTargets > 0;
  }

  /**
   * Hands the held batches over, in order, waiting for room unless another checkpoint comes.
   *
   * @return whether every held batch was handed over
   */
  public boolean maybeHandOverHeld() throws InterruptedException {
    for (int target = 0; target < held.length && heldTargets > 0; target++) {
      ArrayDeque<Batch> batches = held[target];
      if (batches.isEmpty()) {
        continue;
      }
      long start = System.nanoTime();
      while (!batches.isEmpty() && targets.get(target).putUnlessWoken(batches.peek())) {
        heldRecords[target] -= batches.poll().size();
      }
      blockedNanos += System.nanoTime() - start;
      if (!batches.isEmpty()) {
        return false;
      }
      heldTargets--;
    }
    return heldTargets == 0;
  }

  /**
   * Ends a wait for room at every target where barriers overtake: a checkpoint came to the task.
   * Called by any thread.
   */
  public void wakeBlockedSenders() {
    for (BatchReceiver target : targets) {
      target.wakeSender(channelAtTarget);
    }
  }

  /** Time spent handing batches to targets (waiting for room in a bounded queue or for credit). */
  public long blockedNanos() {
    return blockedNanos;
  }
}
