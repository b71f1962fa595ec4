package io.weir.runtime.operators.window;

import io.weir.api.windowing.TimeWindow;
import java.io.Externalizable;
import java.io.IOException;
import java.io.ObjectInput;
import java.io.ObjectOutput;
import java.util.AbstractMap;
import java.util.AbstractSet;
import java.util.Arrays;
import java.util.Iterator;
import java.util.Map;
import java.util.NoSuchElementException;
import java.util.Set;

/**
 * One key's open time windows and the state each has accumulated, as the window operator keeps them
 * in keyed state: a map, ordered by start and then end, held in two arrays. Most keys have a window
 * or a few open, and a checkpoint on the heap writes every key's windows, so the windows' bounds go
 * out as primitive longs beside the accumulated values rather than as a hash map of window objects;
 * in memory, three small objects take the place of a hash table, its nodes and window keys. Lookups
 * search the bounds by bisection, so a key with many sliding windows open stays cheap to update.
 *
 * <p>Not thread-safe: used on the task thread only, as keyed state is.
 */
public final class OpenWindows extends AbstractMap<TimeWindow, Object> implements Externalizable {
  private static final long serialVersionUID = 1L;
  private static final long[] NO_BOUNDS = new long[0];
  private static final Object[] NO_VALUES = new Object[0];

  /** Start and end of each window, in pairs. */
  private long[] bounds = NO_BOUNDS;

  private Object[] values = NO_VALUES;
  private int size;

  /** No windows; public for serialization. */
  public OpenWindows() {}

  /**
   * No windows, with room for {@code capacity}: a key's windows read back from bytes are put in one
   * after another, and growing the arrays for each would cost more than the puts.
   */
  OpenWindows(int capacity) {
    this.bounds = new long[2 * capacity];
    this.values = new Object[capacity];
  }

  /** The windows of {@code written}, kept in this form from now on. */
  public static OpenWindows of(Map<?, ?> written) {
    if (written instanceof OpenWindows open) {
      return open;
    }
    OpenWindows windows = new OpenWindows();
    written.forEach((window, value) -> windows.put((TimeWindow) window, value));
    return windows;
  }

  @Override
  public int size() {
    return size;
  }

  @Override
  public boolean containsKey(Object key) {
    return key instanceof TimeWindow window && indexOf(window.start(), window.end()) >= 0;
  }

  @Override
  public Object get(Object key) {
    if (!(key instanceof TimeWindow window)) {
      return null;
    }
    int index = indexOf(window.start(), window.end());
    return index >= 0 ? values[index] : null;
  }

  @Override
  public Object put(TimeWindow window, Object value) {
    int index = indexOf(window.start(), window.end());
    if (index >= 0) {
      Object before = values[index];
      values[index] = value;
      return before;
    }
    insert(-index - 1, window, value);
    return null;
  }

  @Override
  public Object remove(Object key) {
    if (!(key instanceof TimeWindow window)) {
      return null;
    }
    int index = indexOf(window.start(), window.end());
    if (index < 0) {
      return null;
    }
    Object before = values[index];
    removeAt(index);
    return before;
  }

  @Override
  public void clear() {
    Arrays.fill(values, 0, size, null);
    size = 0;
  }

  @Override
  public Set<Entry<TimeWindow, Object>> entrySet() {
    return new AbstractSet<>() {
      @Override
      public Iterator<Entry<TimeWindow, Object>> iterator() {
        return new Entries();
      }

      @Override
      public int size() {
        return size;
      }
    };
  }

  long startAt(int index) {
    return bounds[2 * index];
  }

  long endAt(int index) {
    return bounds[2 * index + 1];
  }

  Object valueAt(int index) {
    return values[index];
  }

  /** The index of the window, or {@code -(insertion point) - 1} when it is not open. */
  private int indexOf(long start, long end) {
    int low = 0;
    int high = size - 1;
    while (low <= high) {
      int middle = (low + high) >>> 1;
      int order = compare(bounds[2 * middle], bounds[2 * middle + 1], start, end);
      if (order < 0) {
        low = middle + 1;
      } else if (order > 0) {
        high = middle - 1;
      } else {
        return middle;
      }
    }
    return -(low + 1);
  }

  private static int compare(long start, long end, long otherStart, long otherEnd) {
    int byStart = Long.compare(start, otherStart);
    return byStart != 0 ? byStart : Long.compare(end, otherEnd);
  }

  private void insert(int index, TimeWindow window, Object value) {
    if (size == values.length) {
      int capacity = Math.max(1, size * 2);
      values = Arrays.copyOf(values, capacity);
      bounds = Arrays.copyOf(bounds, 2 * capacity);
    }
    System.arraycopy(values, index, values, index + 1, size - index);
    System.arraycopy(bounds, 2 * index, bounds, 2 * index + 2, 2 * (size - index));
    values[index] = value;
    bounds[2 * index] = window.start();
    bounds[2 * index + 1] = window.end();
    size++;
  }

  private void removeAt(int index) {
    System.arraycopy(values, index + 1, values, index, size - index - 1);
    System.arraycopy(bounds, 2 * index + 2, bounds, 2 * index, 2 * (size - index - 1));
    size--;
    values[size] = null;
  }

  @Override
  public void writeExternal(ObjectOutput out) throws IOException {
    out.writeInt(size);
    for (int index = 0; index < size; index++) {
      out.writeLong(bounds[2 * index]);
      out.writeLong(bounds[2 * index + 1]);
      out.writeObject(values[index]);
    }
  }

  @Override
  public void readExternal(ObjectInput in) throws IOException, ClassNotFoundException {
    int count = in.readInt();
    bounds = new long[2 * count];
    values = new Object[count];
    for (int index = 0; index < count; index++) {
      bounds[2 * index] = in.readLong();
      bounds[2 * index + 1] = in.readLong();
      values[index] = in.readObject();
    }
    size = count;
  }

  /** The windows in order, each entry made as it is reached. */
  private final class Entries implements Iterator<Entry<TimeWindow, Object>> {
    private int next;
    private boolean removable;

    @Override
    public boolean hasNext() {
      return next < size;
    }

    @Override
    public Entry<TimeWindow, Object> next() {
      if (next >= size) {
        throw new NoSuchElementException();
      }
      int index = next++;
      removable = true;
      return new SimpleImmutableEntry<>(
          new TimeWindow(bounds[2 * index], bounds[2 * index + 1]), values[index]);
    }

    @Override
    public void remove() {
      if (!removable) {
        throw new IllegalStateException("remove() without next()");
      }
      removable = false;
      removeAt(--next);
    }
  }
}
