package io.weir.runtime.state;

/**
 * The timers of one time domain of a keyed operator in one subtask: (time, key) pairs, each
 * registered at most once, taken out in time order. The keyed state backend keeps them, so they are
 * checkpointed, restored and rescaled by key group with the rest of the keyed state; a backend that
 * keeps state off the heap keeps its timers there too, so their number need not fit in memory.
 *
 * <p>Threads and order: used only on the task thread. {@link #register} and {@link #delete} act for
 * the backend's current key. {@link #pollDue} changes the backend's current key to the key of the
 * timer it returns.
 */
public interface KeyedTimerQueue {
  /** A timer taken out of the queue: its time, and the key whose timer it is. */
  record Timer(long time, Object key) {}

  /** Registers the current key's timer at {@code time}; registering it again does nothing. */
  void register(long time);

  /** Deletes the current key's timer at {@code time}; does nothing when there is none. */
  void delete(long time);

  /**
   * The time of the earliest timer, or {@link Long#MAX_VALUE} when there is none. It may be the
   * time of a deleted timer, for which {@link #pollDue} then returns nothing: schedule a wake-up
   * with it, never fire by it.
   */
  long nextTime();

  /**
   * Takes out the earliest timer if its time is at or before {@code time}, makes its key the
   * backend's current key and returns it; null when no timer is due.
   */
  Timer pollDue(long time);
}
