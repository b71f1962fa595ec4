package io.weir.runtime.state;

import java.io.DataInput;
import java.io.DataOutput;
import java.io.Externalizable;
import java.io.IOException;
import java.io.ObjectInput;
import java.io.ObjectOutput;
import java.util.Arrays;

/**
 * The times of one key's timers in one time domain, ascending and each once, as {@link
 * HeapTimerQueue} keeps them in keyed state. A sorted array rather than a {@code TreeSet<Long>}:
 * most keys have one or two timers, and a checkpoint writes every key's times, so one object of
 * primitive longs costs a fraction of a tree of boxed ones, in memory and in serialization. Timers
 * fire in time order, so the earliest is taken out without moving the others.
 */
public final class KeyTimerTimes implements Externalizable {
  private static final long serialVersionUID = 1L;
  private static final long[] NONE = new long[0];

  private long[] times;
  private int first;
  private int size;

  /** No times; public for serialization. */
  public KeyTimerTimes() {
    this.times = NONE;
  }

  /** The times of a value an earlier version kept as a set of boxed times. */
  static KeyTimerTimes of(Iterable<?> written) {
    KeyTimerTimes times = new KeyTimerTimes();
    for (Object time : written) {
      times.add((Long) time);
    }
    return times;
  }

  int size() {
    return size;
  }

  boolean isEmpty() {
    return size == 0;
  }

  long get(int index) {
    return times[first + index];
  }

  /** The same times in an array of their own. */
  KeyTimerTimes copy() {
    KeyTimerTimes copy = new KeyTimerTimes();
    copy.times = Arrays.copyOfRange(times, first, first + size);
    copy.size = size;
    return copy;
  }

  /** Adds {@code time}; false when it is there already. */
  boolean add(long time) {
    int found = Arrays.binarySearch(times, first, first + size, time);
    if (found >= 0) {
      return false;
    }
    if (first + size == times.length) {
      compactOrGrow();
      found = Arrays.binarySearch(times, 0, size, time);
    }
    int at = -found - 1;
    System.arraycopy(times, at, times, at + 1, first + size - at);
    times[at] = time;
    size++;
    return true;
  }

  /** Moves the times to the front of an array with room for one more. */
  private void compactOrGrow() {
    long[] target = first > 0 ? times : new long[Math.max(2, times.length * 2)];
    System.arraycopy(times, first, target, 0, size);
    times = target;
    first = 0;
  }

  /** Removes {@code time}; false when it was not there. */
  boolean remove(long time) {
    int at = Arrays.binarySearch(times, first, first + size, time);
    if (at < 0) {
      return false;
    }
    if (at == first) {
      first++;
    } else {
      System.arraycopy(times, at + 1, times, at, first + size - at - 1);
    }
    size--;
    if (size == 0) {
      first = 0;
    }
    return true;
  }

  @Override
  public void writeExternal(ObjectOutput out) throws IOException {
    writeTo(out);
  }

  @Override
  public void readExternal(ObjectInput in) throws IOException {
    readFrom(in);
  }

  /** The count, then each time: what a heap snapshot writes of a key's timers. */
  void writeTo(DataOutput out) throws IOException {
    out.writeInt(size);
    for (int index = 0; index < size; index++) {
      out.writeLong(times[first + index]);
    }
  }

  /** The times {@link #writeTo} wrote. */
  static KeyTimerTimes read(DataInput in) throws IOException {
    KeyTimerTimes times = new KeyTimerTimes();
    times.readFrom(in);
    return times;
  }

  private void readFrom(DataInput in) throws IOException {
    size = in.readInt();
    first = 0;
    times = new long[size];
    for (int index = 0; index < size; index++) {
      times[index] = in.readLong();
    }
  }

  @Override
  public String toString() {
    return Arrays.toString(Arrays.copyOfRange(times, first, first + size));
  }
}
