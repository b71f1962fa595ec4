package io.weir.runtime.exchange;

import java.util.concurrent.ArrayBlockingQueue;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.TimeUnit;

/**
 * The inbox of one subtask: batches from all its input channels in arrival order, bounded so that a
 * slow task holds back its producers (backpressure). The task's own thread is the only reader.
 */
public final class InputGate implements BatchReceiver {
  /** Offered to wake the reader when mail arrived; carries nothing. */
  static final Batch WAKE_UP = new Batch(-1, 1);

  private final int channels;
  private final BlockingQueue<Batch> queue;
  private volatile Exception undeliverable;

  public InputGate(int channels, int capacity) {
    this.channels = channels;
    this.queue = new ArrayBlockingQueue<>(capacity);
  }

  public int channels() {
    return channels;
  }

  /** Blocks while the gate is full. */
  @Override
  public void put(Batch batch) throws InterruptedException {
    queue.put(batch);
  }

  /**
   * The next batch, or null when none came within the timeout or the reader was woken up.
   *
   * @throws UndeliverableInputException once a batch for this gate could not be delivered
   */
  public Batch poll(long timeoutNanos) throws InterruptedException {
    Batch batch = timeoutNanos <= 0 ? queue.poll() : queue.poll(timeoutNanos, TimeUnit.NANOSECONDS);
    if (undeliverable != null) {
      throw new UndeliverableInputException(undeliverable);
    }
    return batch == WAKE_UP ? null : batch;
  }

  /**
   * A batch sent to this gate could not be delivered (received from another process, it did not
   * decode): the reader fails at its next poll rather than wait for records that will not come.
   */
  public void failDelivery(Exception cause) {
    undeliverable = cause;
    queue.offer(WAKE_UP);
  }

  /** Makes a blocked {@link #poll} return; when the gate is full the reader is awake anyway. */
  public void wakeUp() {
    queue.offer(WAKE_UP);
  }
}
