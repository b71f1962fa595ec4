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

  /** The elements from {@code from} on, as a new batch (the rest of a batch held by alignment). */
  public Batch tail(int from) {
    Batch rest = new Batch(channel, Math.max(1, size - from));
    for (int i = from; i < size; i++) {
      rest.add(values[i], timestamps[i]);
    }
    return rest;
  }
}
