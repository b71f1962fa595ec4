package io.weir.runtime.exchange;

/**
 * Records and events travelling together from one upstream subtask to one downstream subtask.
 * Batching makes the hand-over between threads cost one queue operation per batch instead of per
 * record; the arrays hold the records themselves, so no wrapper is allocated per record.
 */
public final class Batch {
  /** The input channel of the receiving task this batch arrived on. */
  final int channel;

  final Object[] values;
  final long[] timestamps;
  int size;
  // Set by the receiving gate under its lock: batches of one gate are numbered in arrival order.
  long sequence;

  Batch(int channel, int capacity) {
    this.channel = channel;
    this.values = new Object[capacity];
    this.timestamps = new long[capacity];
  }

  /**
   * A batch rebuilt from its parts, as received from another process; the arrays become the batch's
   * own.
   */
  public static Batch of(int channel, Object[] values, long[] timestamps) {
    if (values.length != timestamps.length) {
      throw new IllegalArgumentException(
          values.length + " values but " + timestamps.length + " timestamps");
    }
    Batch batch = new Batch(channel, values, timestamps);
    batch.size = values.length;
    return batch;
  }

  private Batch(int channel, Object[] values, long[] timestamps) {
    this.channel = channel;
    this.values = values;
    this.timestamps = timestamps;
  }

  boolean isFull() {
    return size == values.length;
  }

  void add(Object value, long timestamp) {
    values[size] = value;
    timestamps[size] = timestamp;
    size++;
  }

  /** A batch of one event, as a gate hands out ahead of queued batches. */
  static Batch ofEvent(int channel, StreamEvent event) {
    Batch batch = new Batch(channel, 1);
    batch.add(event, Long.MIN_VALUE);
    return batch;
  }

  /** The same elements with room for one more (so that an event can follow a full batch). */
  Batch withRoomForOne() {
    Batch larger = new Batch(channel, size + 1);
    System.arraycopy(values, 0, larger.values, 0, size);
    System.arraycopy(timestamps, 0, larger.timestamps, 0, size);
    larger.size = size;
    return larger;
  }

  /** The last element, or null for an empty batch. */
  Object last() {
    return size == 0 ? null : values[size - 1];
  }

  /** Where the receiving gate queued this batch among all batches it received (from 1 on). */
  public long sequence() {
    return sequence;
  }

  public int channel() {
    return channel;
  }

  public int size() {
    return size;
  }

  public Object value(int index) {
    return values[index];
  }

  public long timestamp(int index) {
    return timestamps[index];
  }

  /**
   * The elements from {@code from} on, as a new batch numbered as this one (the rest of a batch
   * held by alignment, or left unprocessed for a barrier's announcement).
   */
  public Batch tail(int from) {
    Batch rest = new Batch(channel, Math.max(1, size - from));
    for (int i = from; i < size; i++) {
      rest.add(values[i], timestamps[i]);
    }
    rest.sequence = sequence;
    return rest;
  }
}
