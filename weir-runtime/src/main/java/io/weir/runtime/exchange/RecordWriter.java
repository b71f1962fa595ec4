package io.weir.runtime.exchange;

import java.util.List;

/**
 * Sends the records of one subtask along one edge: picks the target subtask, fills a batch per
 * target (of at most the target's credit, {@link BatchReceiver#recordsPerBatch}) and hands a batch
 * over when it is full, when an event must follow the records in order, or when the buffer timeout
 * passed ({@link #flushAll}). Used only by the sending task's thread.
 */
public final class RecordWriter {
  private final ChannelSelector selector;
  private final List<BatchReceiver> targets;
  private final int channelAtTarget;
  private final int batchSize;
  private final Batch[] pending;
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

  /** Sends the event to every target after the records before it. */
  public void broadcast(StreamEvent event) throws InterruptedException {
    for (int target = 0; target < pending.length; target++) {
      Batch batch = pending[target];
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
    targets.get(target).put(batch);
    blockedNanos += System.nanoTime() - start;
  }

  /** Time spent handing batches to targets (waiting for room in a bounded queue or for credit). */
  public long blockedNanos() {
    return blockedNanos;
  }
}
