package io.weir.runtime.operators;

import io.weir.api.source.ReaderOutput;
import java.util.Arrays;

/**
 * What a pushing source emitted and its task has not yet taken: records with their timestamps,
 * watermarks and idleness, in order, in two arrays that need no allocation per record. It grows
 * past its initial size only while a source emits many records in one hold of its lock (the source
 * cannot be made to wait for room there). Not thread-safe: {@link SourceFunctionReader} guards it.
 */
final class SourceHandOff {
  private static final Object WATERMARK = new Object();
  private static final Object IDLE = new Object();

  private Object[] values;
  private long[] timestamps;
  private int size;

  SourceHandOff(int initialSize) {
    this.values = new Object[initialSize];
    this.timestamps = new long[initialSize];
  }

  boolean isEmpty() {
    return size == 0;
  }

  int size() {
    return size;
  }

  void addRecord(Object record, long timestamp) {
    if (size == values.length) {
      values = Arrays.copyOf(values, size * 2);
      timestamps = Arrays.copyOf(timestamps, size * 2);
    }
    values[size] = record;
    timestamps[size++] = timestamp;
  }

  void addWatermark(long watermark) {
    addRecord(WATERMARK, watermark);
  }

  void addIdle() {
    addRecord(IDLE, 0);
  }

  /** Hands everything held to {@code empty}, in exchange for its (empty) arrays. */
  void moveTo(SourceHandOff empty) {
    Object[] otherValues = empty.values;
    long[] otherTimestamps = empty.timestamps;
    empty.values = values;
    empty.timestamps = timestamps;
    empty.size = size;
    values = otherValues;
    timestamps = otherTimestamps;
    size = 0;
  }

  /** Emits everything held, in order, and empties the hand-off. */
  void emitTo(ReaderOutput<Object> output) {
    int count = size;
    size = 0;
    for (int i = 0; i < count; i++) {
      Object value = values[i];
      values[i] = null;
      if (value == WATERMARK) {
        output.emitWatermark(timestamps[i]);
      } else if (value == IDLE) {
        output.markIdle();
      } else {
        output.collect(value, timestamps[i]);
      }
    }
  }
}
