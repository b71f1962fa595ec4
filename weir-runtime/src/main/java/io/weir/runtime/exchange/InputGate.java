package io.weir.runtime.exchange;

import io.weir.api.state.StateSerializer;
import io.weir.runtime.exchange.StreamEvent.BarrierAnnouncement;
import io.weir.runtime.exchange.StreamEvent.CheckpointBarrier;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.concurrent.locks.Condition;
import java.util.concurrent.locks.ReentrantLock;

/**
 * The inbox of one subtask: batches from all its input channels in arrival order, bounded so that a
 * slow task holds back its producers (backpressure). The task's own thread is the only reader.
 *
 * <p>With {@link BarrierOrder#OVERTAKING} a batch that ends with a checkpoint barrier is queued
 * without waiting for room (at most one such batch per channel and checkpoint) and a {@link
 * BarrierAnnouncement} is handed out ahead of every queued batch; batches are numbered in arrival
 * order, so the reader knows which queued batches precede the barrier. A transport that delivers a
 * channel's batches one after another can tell the gate that such a batch is on its way ({@link
 * #expectOvertakingBarrier}): the batches ahead of it are then queued without waiting for room too,
 * so that the barrier is not held back behind them.
 *
 * <p>Its {@link ChannelCredit} tells senders how many records to put in a batch: adaptive credit
 * follows the reader's throughput, so that what the gate holds takes about a target time to
 * process; a transport from another process passes the credit on to its senders with each batch's
 * credit it returns. The gate counts the records queued on each channel (with those a transport
 * received and waits to put) and, from a record encoded now and then by the reader, estimates their
 * bytes.
 */
public final class InputGate implements BatchReceiver {
  private final int channels;
  private final int capacity;
  private final BarrierOrder barrierOrder;
  private final List<StateSerializer<?>> serializers;
  private final ChannelCredit credit;
  private final RecordSizes recordSizes;
  private final ReentrantLock lock = new ReentrantLock();
  private final Condition notEmpty = lock.newCondition();
  private final Condition notFull = lock.newCondition();
  private final ArrayDeque<Batch> queue;
  private final ArrayDeque<Batch> announcements = new ArrayDeque<>();
  // The announcements not yet polled, written under the lock: the reader looks between records.
  private volatile int waitingAnnouncements;
  // By channel, the batches ending with a barrier that a transport said are on their way.
  private final int[] expectedBarriers;
  private int expectedBarriersTotal;
  private final long[] queuedRecords;
  // By channel, the records of batches a transport received for the gate and has yet to put.
  private final long[] arrivingRecords;
  // By channel, whether the sender was asked to stop waiting for room (a checkpoint came to it).
  private final boolean[] wokenSenders;
  private long lastSequence;
  private boolean wakeUpRequested;
  private volatile Exception undeliverable;
  // Set once by the reading task: ends its own output's wait for room when a barrier overtakes.
  private volatile Runnable onOvertakingBarrier;

  public InputGate(int channels, int capacity) {
    this(
        channels,
        capacity,
        BarrierOrder.IN_LINE,
        Collections.nCopies(channels, null),
        ChannelCredit.fixed(Integer.MAX_VALUE));
  }

  /**
   * @param serializers by channel, the serializer its records were declared with (null for none),
   *     with which records in flight are stored in checkpoints
   * @param credit the records a sender may put in one batch to this gate
   */
  public InputGate(
      int channels,
      int capacity,
      BarrierOrder barrierOrder,
      List<? extends StateSerializer<?>> serializers,
      ChannelCredit credit) {
    if (serializers.size() != channels) {
      throw new IllegalArgumentException(
          serializers.size() + " serializers for " + channels + " channels");
    }
    this.channels = channels;
    this.capacity = capacity;
    this.barrierOrder = barrierOrder;
    this.serializers = Collections.unmodifiableList(new ArrayList<>(serializers));
    this.queue = new ArrayDeque<>(capacity + channels);
    this.expectedBarriers = new int[channels];
    this.credit = credit;
    this.queuedRecords = new long[channels];
    this.arrivingRecords = new long[channels];
    this.wokenSenders = new boolean[channels];
    this.recordSizes = new RecordSizes(new InFlightRecords(this.serializers));
  }

  public int channels() {
    return channels;
  }

  public BarrierOrder barrierOrder() {
    return barrierOrder;
  }

  /** By channel, the serializer its records were declared with, or null. */
  public List<StateSerializer<?>> serializers() {
    return serializers;
  }

  public ChannelCredit credit() {
    return credit;
  }

  @Override
  public int recordsPerBatch() {
    return credit.recordsPerBatch();
  }

  /**
   * Blocks while the gate is full, unless the batch carries an overtaking barrier or an overtaking
   * barrier is expected behind it.
   */
  @Override
  public void put(Batch batch) throws InterruptedException {
    put(batch, false);
  }

  /**
   * A transport received a batch of {@code records} records and events for the channel, which it
   * will {@link #putArrived put} once the gate has room: until then they count as queued on the
   * channel, as what waits for the gate in this process is in flight to the reader as much as what
   * the gate holds. Called by the transport's receiving thread, in the order the batches came.
   */
  public void arriving(int channel, int records) {
    lock.lock();
    try {
      arrivingRecords[channel] += records;
    } finally {
      lock.unlock();
    }
  }

  /** Puts a batch announced by {@link #arriving}, as {@link #put} does. */
  public void putArrived(Batch batch) throws InterruptedException {
    put(batch, true);
  }

  private void put(Batch batch, boolean arrived) throws InterruptedException {
    boolean announced;
    lock.lockInterruptibly();
    try {
      while (!takesWithoutRoom(batch) && queue.size() >= capacity) {
        notFull.await();
      }
      if (arrived) {
        arrivingRecords[batch.channel] -= batch.size;
      }
      announced = enqueue(batch);
    } finally {
      lock.unlock();
    }
    if (announced) {
      maybeWakeReadersOutput();
    }
  }

  /**
   * With overtaking barriers, a wait for room ends once the sender of the batch's channel is woken
   * ({@link #wakeSender}); otherwise as {@link #put}.
   */
  @Override
  public boolean putUnlessWoken(Batch batch) throws InterruptedException {
    if (barrierOrder != BarrierOrder.OVERTAKING) {
      put(batch);
      return true;
    }
    boolean announced;
    lock.lockInterruptibly();
    try {
      while (!takesWithoutRoom(batch) && queue.size() >= capacity) {
        if (wokenSenders[batch.channel]) {
          wokenSenders[batch.channel] = false;
          // Room that frees meanwhile is another waiting sender's.
          notFull.signal();
          return false;
        }
        notFull.await();
      }
      wokenSenders[batch.channel] = false;
      announced = enqueue(batch);
    } finally {
      lock.unlock();
    }
    if (announced) {
      maybeWakeReadersOutput();
    }
    return true;
  }

  @Override
  public void wakeSender(int channel) {
    if (barrierOrder != BarrierOrder.OVERTAKING) {
      return;
    }
    lock.lock();
    try {
      wokenSenders[channel] = true;
      notFull.signalAll();
    } finally {
      lock.unlock();
    }
  }

  private boolean takesWithoutRoom(Batch batch) {
    return expectedBarriersTotal > 0 || overtakes(batch);
  }

  private boolean overtakes(Batch batch) {
    return barrierOrder == BarrierOrder.OVERTAKING && batch.last() instanceof CheckpointBarrier;
  }

  /**
   * Called holding the lock.
   *
   * @return whether the batch's barrier was announced (it overtakes what is queued)
   */
  private boolean enqueue(Batch batch) {
    batch.sequence = ++lastSequence;
    queue.add(batch);
    queuedRecords[batch.channel] += batch.size;
    boolean announced = overtakes(batch);
    if (announced) {
      if (expectedBarriers[batch.channel] > 0) {
        expectedBarriers[batch.channel]--;
        expectedBarriersTotal--;
      }
      CheckpointBarrier barrier = (CheckpointBarrier) batch.last();
      announcements.add(
          Batch.ofEvent(batch.channel, new BarrierAnnouncement(barrier, batch.sequence)));
      waitingAnnouncements = announcements.size();
    }
    notEmpty.signal();
    return announced;
  }

  /**
   * Runs {@code wakeOutput} each time a barrier that overtakes is announced here, on the thread
   * that put its batch, after the announcement can be polled and without holding the gate's lock
   * (the reader's output waits in other gates' locks). The reading task passes the end of its own
   * output's wait for room ({@link BatchReceiver#wakeSender}), so that the barrier does not wait
   * behind the batch the reader is blocked on. Called once, by the reading task as it is created;
   * the action must not block.
   */
  public void whenBarrierOvertakes(Runnable wakeOutput) {
    if (onOvertakingBarrier != null) {
      throw new IllegalStateException("the gate's reader was told of overtaking barriers already");
    }
    onOvertakingBarrier = wakeOutput;
  }

  private void maybeWakeReadersOutput() {
    Runnable wakeOutput = onOvertakingBarrier;
    if (wakeOutput != null) {
      wakeOutput.run();
    }
  }

  /**
   * A batch of {@code channel} that ends with a checkpoint barrier is on its way, behind batches of
   * the gate's channels that are still to be {@link #put}: until it is put, no put waits for room,
   * so that the barrier overtakes what is queued instead of waiting for it to drain. Called by a
   * transport's receiving thread, which then puts the batches in the order they came; does nothing
   * unless barriers overtake.
   */
  public void expectOvertakingBarrier(int channel) {
    if (barrierOrder != BarrierOrder.OVERTAKING) {
      return;
    }
    lock.lock();
    try {
      expectedBarriers[channel]++;
      expectedBarriersTotal++;
      notFull.signalAll();
    } finally {
      lock.unlock();
    }
  }

  /**
   * The next announcement, else the next batch; null when none came within the timeout or the
   * reader was woken up.
   *
   * @throws UndeliverableInputException once a batch for this gate could not be delivered
   */
  public Batch poll(long timeoutNanos) throws InterruptedException {
    Batch batch = pollQueued(timeoutNanos);
    if (batch != null && !(batch.size > 0 && batch.values[0] instanceof BarrierAnnouncement)) {
      credit.taken(batch.size);
      recordSizes.maybeSample(batch);
    }
    return batch;
  }

  private Batch pollQueued(long timeoutNanos) throws InterruptedException {
    lock.lockInterruptibly();
    try {
      long nanos = timeoutNanos;
      while (true) {
        if (undeliverable != null) {
          throw new UndeliverableInputException(undeliverable);
        }
        Batch announcement = pollAnnouncementLocked();
        if (announcement != null) {
          return announcement;
        }
        Batch batch = queue.poll();
        if (batch != null) {
          queuedRecords[batch.channel] -= batch.size;
          notFull.signal();
          return batch;
        }
        if (wakeUpRequested) {
          wakeUpRequested = false;
          return null;
        }
        if (nanos <= 0) {
          return null;
        }
        long waitStart = credit.waitStarts();
        nanos = notEmpty.awaitNanos(nanos);
        credit.waitEnded(waitStart);
      }
    } finally {
      lock.unlock();
    }
  }

  /**
   * The next announcement, without waiting and without taking a queued batch; null if none: a
   * reader whose output holds batches since a barrier overtook them takes only barriers until it
   * handed them over, and a reader that stopped a batch for an announcement takes the barriers
   * before it goes on.
   */
  public Batch pollAnnouncement() {
    lock.lock();
    try {
      return pollAnnouncementLocked();
    } finally {
      lock.unlock();
    }
  }

  private Batch pollAnnouncementLocked() {
    Batch announcement = announcements.poll();
    if (announcement != null) {
      waitingAnnouncements = announcements.size();
    }
    return announcement;
  }

  /**
   * Whether an announcement waits to be polled; one volatile read, without the lock, so that the
   * reader can look between two records of a batch and take an overtaking barrier before it
   * finishes the batch.
   */
  public boolean announcementWaiting() {
    return waitingAnnouncements > 0;
  }

  /**
   * Copies the queued batches, in arrival order, into {@code into}, and returns the number of the
   * last batch received: every batch numbered up to it is queued now or was taken already.
   */
  public long copyQueued(List<Batch> into) {
    lock.lock();
    try {
      into.addAll(queue);
      return lastSequence;
    } finally {
      lock.unlock();
    }
  }

  /**
   * By channel, the records (and events) queued in the gate now, and those of batches a transport
   * received for it and has yet to put ({@link #arriving}).
   */
  public long[] queuedRecordsByChannel() {
    lock.lock();
    try {
      long[] queued = queuedRecords.clone();
      for (int channel = 0; channel < channels; channel++) {
        queued[channel] += arrivingRecords[channel];
      }
      return queued;
    } finally {
      lock.unlock();
    }
  }

  /**
   * The bytes {@code records} queued on the channel take, estimated from the encoded size of a
   * record the channel delivered lately; -1 while the channel's records were not sized yet or
   * cannot be encoded.
   */
  public long estimatedBytes(int channel, long records) {
    int recordBytes = recordSizes.bytesOf(channel);
    return recordBytes > 0 ? records * recordBytes : -1;
  }

  /**
   * A batch sent to this gate could not be delivered (received from another process, it did not
   * decode): the reader fails at its next poll rather than wait for records that will not come.
   */
  public void failDelivery(Exception cause) {
    undeliverable = cause;
    wakeUp();
  }

  /** Makes a blocked {@link #poll} return. */
  public void wakeUp() {
    lock.lock();
    try {
      wakeUpRequested = true;
      notEmpty.signal();
    } finally {
      lock.unlock();
    }
  }
}
